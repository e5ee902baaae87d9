import type { Router } from 'express';
import { AppError } from '@partner/contracts';
import { ZCreateRestaurant, ZUpdateRestaurant } from '@partner/contracts/console';
import { parseWith } from '@partner/http';
import { actorOf, reach, reachableOwners, requireOperator } from '../accounts/actor.js';
import type { ConsoleDeps } from '../deps.js';
import { dashboardPreviewKey } from '../keys/managed-keys.js';
import { createRestaurant, getRestaurant, getUsage, listRestaurants, patchRestaurant } from './restaurants.service.js';

/** Plan, add-ons, limits and suspension are set by the platform's operators, not by owners. */
const BILLING_FIELDS = [
  'subscriptionStatus',
  'partnerApiAddon',
  'conciergeAddon',
  'suspended',
  'monthlyQuota',
  'overageBudget',
  'conciergeAllowance',
] as const;

export function registerRestaurantRoutes(router: Router, deps: ConsoleDeps): void {
  router.post('/console/restaurants', async (req, res) => {
    requireOperator(actorOf(req), 'create restaurants');
    res.status(201).json({ data: await createRestaurant(deps, parseWith(ZCreateRestaurant, req.body, 'body')) });
  });
  router.get('/console/restaurants', async (req, res) => {
    res.json({ data: await listRestaurants(deps, reachableOwners(actorOf(req), 'restaurant')) });
  });
  router.get('/console/restaurants/:id', async (req, res) => {
    reach(actorOf(req), { kind: 'restaurant', id: req.params.id });
    res.json({ data: await getRestaurant(deps, req.params.id) });
  });
  router.get('/console/restaurants/:id/preview-key', async (req, res) => {
    reach(actorOf(req), { kind: 'restaurant', id: req.params.id });
    await getRestaurant(deps, req.params.id);
    res.json({ data: await dashboardPreviewKey(deps, req.params.id) });
  });
  router.get('/console/restaurants/:id/usage', async (req, res) => {
    reach(actorOf(req), { kind: 'restaurant', id: req.params.id });
    res.json({ data: await getUsage(deps, req.params.id) });
  });
  router.patch('/console/restaurants/:id', async (req, res) => {
    const actor = actorOf(req);
    reach(actor, { kind: 'restaurant', id: req.params.id });
    const body = parseWith(ZUpdateRestaurant, req.body, 'body');
    const billing = BILLING_FIELDS.find((field) => body[field] !== undefined);
    if (billing && actor.kind !== 'operator') {
      throw new AppError('forbidden', `${billing} is part of the plan: ask the platform to change it.`, { param: billing });
    }
    res.json({ data: await patchRestaurant(deps, req.params.id, body) });
  });
}
