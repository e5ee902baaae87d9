import type { Router } from 'express';
import { z } from 'zod';
import { keyPrincipal } from '@partner/auth';
import type { Db } from '@partner/db';
import { parseWith } from '@partner/kit';
import { zCursorParam, zLimit } from '@partner/platform';
import { listRestaurants } from './restaurants.service.js';

const ZListQuery = z.strictObject({ limit: zLimit, cursor: zCursorParam });

export function registerRestaurantRoutes(router: Router, deps: { db: Db; cursorSecret: string }): void {
  router.get('/v1/partner/restaurants', async (req, res) => {
    const query = parseWith(ZListQuery, req.query, 'query');
    res.json(await listRestaurants(deps, keyPrincipal(req.principal), query));
  });
}
