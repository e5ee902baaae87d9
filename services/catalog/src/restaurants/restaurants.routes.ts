import type { HmacKey } from '@partner/signing';
import type { Router } from 'express';
import { ZListQuery } from '@partner/contracts';
import { keyPrincipal, parseWith } from '@partner/http';
import type { Db } from '@partner/db';
import { listRestaurants } from './restaurants.service.js';

export function registerRestaurantRoutes(router: Router, deps: { db: Db; cursorKey: HmacKey }): void {
  router.get('/v1/partner/restaurants', async (req, res) => {
    const query = parseWith(ZListQuery, req.query, 'query');
    res.json(await listRestaurants(deps, keyPrincipal(req.principal), query));
  });
}
