import type { Router } from 'express';
import { AppError } from '@partner/contracts';
import { parseWith, requireOperator } from '@partner/http';
import type { WebhooksDeps } from '../deps.js';
import { findWebhookEndpoint, updateWebhookEndpoint } from '../webhooks.repository.js';
import { listDeliveries, presentWebhookEndpoint, resendDelivery, ZDeliveryQuery } from './webhook-records.js';

/**
 * The dashboard's webhook actions, for any owner. Console calls them with an operator token: the
 * webhook tables are this service's, so no other service writes them. Never routed by the gateway.
 */
export function registerOperatorRoutes(router: Router, deps: WebhooksDeps): void {
  router.use('/internal', (req, _res, next) => {
    requireOperator(req.principal);
    next();
  });
  router.get('/internal/webhook-deliveries', async (req, res) => {
    res.json(await listDeliveries(deps, null, parseWith(ZDeliveryQuery, req.query, 'query')));
  });
  router.post('/internal/webhook-deliveries/:id/resend', async (req, res) => {
    res.status(201).json({ data: await resendDelivery(deps, null, req.params.id) });
  });
  router.post('/internal/webhook-endpoints/:id/enable', async (req, res) => {
    if (!(await findWebhookEndpoint(deps.db, req.params.id))) throw new AppError('not_found', 'No such webhook endpoint.');
    const row = await updateWebhookEndpoint(deps.db, req.params.id, { status: 'active', disabled_reason: null });
    res.json({ data: presentWebhookEndpoint(row!) });
  });
}
