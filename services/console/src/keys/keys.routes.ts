import type { Router } from 'express';
import { z } from 'zod';
import { zId } from '@partner/contracts';
import { ZCreateKey } from '@partner/contracts/console';
import { parseWith } from '@partner/http';
import type { ConsoleDeps } from '../deps.js';
import { createKey, listKeys, revokeKey } from './keys.service.js';

/** A key belongs to a restaurant or an integrator, never both: asking for both would always list nothing. */
const ZKeyFilter = z
  .strictObject({ restaurantId: zId('rst').optional(), integratorOrgId: zId('org').optional() })
  .refine((filter) => !(filter.restaurantId && filter.integratorOrgId), {
    path: ['integratorOrgId'],
    message: 'Give restaurantId or integratorOrgId, not both',
  });

export function registerKeyRoutes(router: Router, deps: ConsoleDeps): void {
  router.post('/console/keys', async (req, res) => {
    res.status(201).json({ data: await createKey(deps, parseWith(ZCreateKey, req.body, 'body')) });
  });
  router.get('/console/keys', async (req, res) => {
    res.json({ data: await listKeys(deps, parseWith(ZKeyFilter, req.query, 'query')) });
  });
  router.post('/console/keys/:id/revoke', async (req, res) => {
    res.json({ data: await revokeKey(deps, req.params.id) });
  });
}
