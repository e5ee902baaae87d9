import type { Router } from 'express';
import { keyPrincipal, parseWith, sendJson, sendJsonText } from '@partner/http';
import { ZAssetUrlsRequest, ZEmbedItemQuery, ZItemListQuery } from '@partner/contracts';
import type { CatalogDeps } from '../deps.js';
import { getEmbedItem, getItemDetail, listItems, refreshAssetUrls } from './items.service.js';

// Reads answer with sendJson: one write of the string, where express's res.json copies a body of
// 1,000 characters or more into a Buffer first (a sync page is about 500 KB). The POST keeps res.json:
// the idempotency layer catches a late answer through res.send.
export function registerItemRoutes(router: Router, deps: CatalogDeps): void {
  router.get('/v1/partner/restaurants/:id/items', async (req, res) => {
    const query = parseWith(ZItemListQuery, req.query, 'query');
    const page = await listItems(deps, keyPrincipal(req.principal), req.params.id, query);
    // A page of a full sync has no window start; an incremental one starts where the last sync ended.
    deps.catalogMetrics?.notePage(page.meta.syncWindowStart !== null, page.itemsJson.length);
    sendJsonText(res, 200, `{"data":[${page.itemsJson.join(',')}],"meta":${JSON.stringify(page.meta)}}`);
  });
  router.get('/v1/partner/items/:id', async (req, res) => {
    sendJson(res, 200, { data: await getItemDetail(deps, keyPrincipal(req.principal), req.params.id) });
  });
  router.get('/v1/partner/embed/items/:id', async (req, res) => {
    const query = parseWith(ZEmbedItemQuery, req.query, 'query');
    res.setHeader('Cache-Control', 'no-store');
    sendJson(res, 200, { data: await getEmbedItem(deps, keyPrincipal(req.principal), req.params.id, query.view) });
  });
  router.post('/v1/partner/items/:id/asset-urls', async (req, res) => {
    const body = parseWith(ZAssetUrlsRequest, req.body ?? {}, 'body');
    res.json({ data: await refreshAssetUrls(deps, keyPrincipal(req.principal), req.params.id, body.formats) });
  });
}
