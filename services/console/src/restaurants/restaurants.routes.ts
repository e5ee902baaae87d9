import type { Router } from 'express';
import { ZCreateRestaurant, ZUpdateRestaurant } from '@partner/contracts/console';
import { parseWith } from '@partner/http';
import type { ConsoleDeps } from '../deps.js';
import { createRestaurant, getRestaurant, getUsage, patchRestaurant } from './restaurants.service.js';

export function registerRestaurantRoutes(router: Router, deps: ConsoleDeps): void {
  router.post('/console/restaurants', async (req, res) => {
    res.status(201).json({ data: await createRestaurant(deps, parseWith(ZCreateRestaurant, req.body, 'body')) });
  });
  router.get('/console/restaurants/:id', async (req, res) => {
    res.json({ data: await getRestaurant(deps, req.params.id) });
  });
  router.get('/console/restaurants/:id/usage', async (req, res) => {
    res.json({ data: await getUsage(deps, req.params.id) });
  });
  router.patch('/console/restaurants/:id', async (req, res) => {
    res.json({ data: await patchRestaurant(deps, req.params.id, parseWith(ZUpdateRestaurant, req.body, 'body')) });
  });
}
