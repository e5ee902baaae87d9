import type { Router } from 'express';
import { findWebhookEndpoint, updateWebhookEndpoint } from '@partner/db';
import { AppError, parseWith } from '@partner/kit';
import { listDeliveries, presentWebhookEndpoint, resendDelivery, ZDeliveryQuery } from '@partner/platform';
import type { ConsoleDeps } from '../deps.js';

/** The dashboard's webhook actions, for any owner: the delivery log, resend, and re-enabling an endpoint. */
export function registerWebhookRoutes(router: Router, deps: ConsoleDeps): void {
  router.get('/console/webhook-deliveries', async (req, res) => {
    res.json(await listDeliveries({ db: deps.db, cursorSecret: deps.cursorSecret }, null, parseWith(ZDeliveryQuery, req.query, 'query')));
  });
  router.post('/console/webhook-deliveries/:id/resend', async (req, res) => {
    res.status(201).json({ data: await resendDelivery(deps, null, req.params.id) });
  });
  router.post('/console/webhook-endpoints/:id/enable', async (req, res) => {
    if (!(await findWebhookEndpoint(deps.db, req.params.id))) throw new AppError('not_found', 'No such webhook endpoint.');
    const row = await updateWebhookEndpoint(deps.db, req.params.id, { status: 'active', disabled_reason: null });
    res.json({ data: presentWebhookEndpoint(row!) });
  });
}
