import type { Router } from 'express';
import { ZCreateItem, ZCreateSection, ZUpdateItem } from '@partner/contracts/console';
import { parseWith } from '@partner/http';
import type { ConsoleDeps } from '../deps.js';
import { createItem, createSection, deleteItem, getSections, updateItem } from './menu.service.js';

export function registerMenuRoutes(router: Router, deps: ConsoleDeps): void {
  router.post('/console/restaurants/:id/sections', async (req, res) => {
    res.status(201).json({ data: await createSection(deps, req.params.id, parseWith(ZCreateSection, req.body, 'body')) });
  });
  router.get('/console/restaurants/:id/sections', async (req, res) => {
    res.json({ data: await getSections(deps, req.params.id) });
  });
  router.post('/console/restaurants/:id/items', async (req, res) => {
    res.status(201).json({ data: await createItem(deps, req.params.id, parseWith(ZCreateItem, req.body, 'body')) });
  });
  router.patch('/console/items/:id', async (req, res) => {
    res.json({ data: await updateItem(deps, req.params.id, parseWith(ZUpdateItem, req.body, 'body')) });
  });
  router.delete('/console/items/:id', async (req, res) => {
    res.json({ data: await deleteItem(deps, req.params.id) });
  });
}
