import type { Router } from 'express';
import { ZDeliveryListQuery } from '@partner/contracts';
import { ownerPrincipal, parseWith } from '@partner/http';
import { listDeliveries, resendDelivery } from './webhook-records.js';
import type { WebhooksDeps } from '../deps.js';

export function registerDeliveryRoutes(router: Router, deps: WebhooksDeps): void {
  router.get('/v1/partner/webhook-deliveries', async (req, res) => {
    res.json(await listDeliveries(deps, ownerPrincipal(req.principal).owner, parseWith(ZDeliveryListQuery, req.query, 'query')));
  });
  router.post('/v1/partner/webhook-deliveries/:id/resend', async (req, res) => {
    const { delivery, created } = await resendDelivery(deps, ownerPrincipal(req.principal).owner, req.params.id);
    res.status(created ? 201 : 200).json({ data: delivery });
  });
}
