import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
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
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    if ('body' in answer) {
      res.setHeader('Content-Length', answer.body.length);
      res.end(answer.body);
      return;
    }
    await pipeline(Readable.from(answer.chunks), res).catch((err: unknown) => {
      // A client that left mid-menu is nobody's fault; a build that failed mid-way is (the answer is cut short).
      if ((err as NodeJS.ErrnoException).code !== 'ERR_STREAM_PREMATURE_CLOSE') throw err;
    });
  });
}
