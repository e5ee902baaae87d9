import type { Router } from 'express';
import { z } from 'zod';
import { zId } from '@partner/contracts';
import { ZCreateKey } from '@partner/contracts/console';
import { parseWith } from '@partner/http';
import { actorOf, type ConsoleActor, reach } from '../accounts/actor.js';
import type { ConsoleDeps } from '../deps.js';
import { createKey, listKeys, revokeKey } from './keys.service.js';

/** A key belongs to a restaurant or an integrator, never both: asking for both would always list nothing. */
const ZKeyFilter = z
  .strictObject({ restaurantId: zId('rst').optional(), integratorOrgId: zId('org').optional() })
  .refine((filter) => !(filter.restaurantId && filter.integratorOrgId), {
    path: ['integratorOrgId'],
    message: 'Give restaurantId or integratorOrgId, not both',
  });

/** The restaurant or integrator org a key is made for or listed by; either is checked when given. */
function reachKeyOwner(actor: ConsoleActor, owner: { restaurantId?: string; integratorOrgId?: string }): void {
  if (owner.restaurantId) reach(actor, { kind: 'restaurant', id: owner.restaurantId });
  if (owner.integratorOrgId) reach(actor, { kind: 'integrator', id: owner.integratorOrgId });
}

export function registerKeyRoutes(router: Router, deps: ConsoleDeps): void {
  router.post('/console/keys', async (req, res) => {
    const body = parseWith(ZCreateKey, req.body, 'body');
    reachKeyOwner(actorOf(req), body);
    res.status(201).json({ data: await createKey(deps, body) });
  });
  router.get('/console/keys', async (req, res) => {
    const filter = parseWith(ZKeyFilter, req.query, 'query');
    reachKeyOwner(actorOf(req), filter);
    res.json({ data: await listKeys(deps, filter) });
  });
  router.post('/console/keys/:id/revoke', async (req, res) => {
    res.json({ data: await revokeKey(deps, actorOf(req), req.params.id) });
  });
}
