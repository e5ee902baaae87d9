import type { Router } from 'express';
import { keyPrincipal } from '@partner/http';
import type { CatalogDeps } from '../deps.js';
import { getMenu } from './menu.service.js';

export function registerMenuRoutes(router: Router, deps: CatalogDeps): void {
  router.get('/v1/partner/restaurants/:id/menu', async (req, res) => {
    const answer = await getMenu(deps, keyPrincipal(req.principal), req.params.id, req.headers['if-none-match']);
    res.setHeader('ETag', answer.etag);
    res.setHeader('Cache-Control', 'private, no-cache');
    if (answer.notModified) {
      res.status(304).end();
      return;
    }
    res.json({ data: answer.menu });
  });
}
