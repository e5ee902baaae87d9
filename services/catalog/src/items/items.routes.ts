import type { Router } from 'express';
import { z } from 'zod';
import { keyPrincipal, parseWith, zCursorParam, zLimit } from '@partner/http';
import { ZAssetUrlsRequest, ZItemStatus } from '@partner/contracts';
import type { CatalogDeps } from '../deps.js';
import { getEmbedItem, getItemDetail, listItems, refreshAssetUrls } from './items.service.js';

const ZItemListQuery = z.strictObject({
  limit: zLimit,
  cursor: zCursorParam,
  updatedAfter: z.iso
    .datetime({ offset: true, message: 'must be an ISO 8601 timestamp with a time zone, such as 2026-01-31T12:00:00.000Z' })
    .transform((value) => new Date(value))
    .optional(),
  status: z.enum(ZItemStatus.options, { message: `must be one of ${ZItemStatus.options.join(', ')}` }).optional(),
});

const ZEmbedItemQuery = z.strictObject({ view: z.string().max(200).optional() });

export function registerItemRoutes(router: Router, deps: CatalogDeps): void {
  router.get('/v1/partner/restaurants/:id/items', async (req, res) => {
    const query = parseWith(ZItemListQuery, req.query, 'query');
    res.json(await listItems(deps, keyPrincipal(req.principal), req.params.id, query));
  });
  router.get('/v1/partner/items/:id', async (req, res) => {
    res.json({ data: await getItemDetail(deps, keyPrincipal(req.principal), req.params.id) });
  });
  router.get('/v1/partner/embed/items/:id', async (req, res) => {
    const query = parseWith(ZEmbedItemQuery, req.query, 'query');
    res.setHeader('Cache-Control', 'no-store');
    res.json({ data: await getEmbedItem(deps, keyPrincipal(req.principal), req.params.id, query.view) });
  });
  router.post('/v1/partner/items/:id/asset-urls', async (req, res) => {
    const body = parseWith(ZAssetUrlsRequest, req.body ?? {}, 'body');
    res.json({ data: await refreshAssetUrls(deps, keyPrincipal(req.principal), req.params.id, body.formats) });
  });
}
