import type { Request, Router } from 'express';
import { z } from 'zod';
import { zId } from '@partner/contracts';
import { ZCreateItem, ZCreateSection, ZUpdateItem } from '@partner/contracts/console';
import { parseWith } from '@partner/http';
import { actorOf, reach } from '../accounts/actor.js';
import { reachItem } from '../accounts/reach-rows.js';
import type { ConsoleDeps } from '../deps.js';
import { createItem, createSection, deleteItem, getItems, getSections, updateItem } from './menu.service.js';

const ZItemsPage = z.strictObject({
  limit: z.coerce.number().int().min(1).max(500).default(100),
  after: zId('itm').optional(),
});

export function registerMenuRoutes(router: Router, deps: ConsoleDeps): void {
  const restaurantOf = (req: Request<{ id: string }>) => reach(actorOf(req), { kind: 'restaurant', id: req.params.id });
  router.post('/console/restaurants/:id/sections', async (req, res) => {
    restaurantOf(req);
    res.status(201).json({ data: await createSection(deps, req.params.id, parseWith(ZCreateSection, req.body, 'body')) });
  });
  router.get('/console/restaurants/:id/sections', async (req, res) => {
    restaurantOf(req);
    res.json({ data: await getSections(deps, req.params.id) });
  });
  router.get('/console/restaurants/:id/items', async (req, res) => {
    restaurantOf(req);
    res.json(await getItems(deps, req.params.id, parseWith(ZItemsPage, req.query, 'query')));
  });
  router.post('/console/restaurants/:id/items', async (req, res) => {
    restaurantOf(req);
    res.status(201).json({ data: await createItem(deps, req.params.id, parseWith(ZCreateItem, req.body, 'body')) });
  });
  router.patch('/console/items/:id', async (req, res) => {
    await reachItem(deps.db, actorOf(req), req.params.id);
    res.json({ data: await updateItem(deps, req.params.id, parseWith(ZUpdateItem, req.body, 'body')) });
  });
  router.delete('/console/items/:id', async (req, res) => {
    await reachItem(deps.db, actorOf(req), req.params.id);
    res.json({ data: await deleteItem(deps, req.params.id) });
  });
}
