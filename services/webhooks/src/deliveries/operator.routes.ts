import type { Router } from 'express';
import { AppError, ZDeliveryListQuery, ZEnableWebhookEndpoint, ZRecoverWebhookDeliveries } from '@partner/contracts';
import { parseWith, requireOperator } from '@partner/http';
import type { WebhooksDeps } from '../deps.js';
import { findWebhookEndpoint, updateWebhookEndpoint } from '../webhooks.repository.js';
import { recoverDeliveries, recoverEndpoint, recoveryRange } from './recovery.js';
import { listDeliveries, presentWebhookEndpoint, resendDelivery } from './webhook-records.js';

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
    res.json(await listDeliveries(deps, null, parseWith(ZDeliveryListQuery, req.query, 'query')));
  });
  router.post('/internal/webhook-deliveries/:id/resend', async (req, res) => {
    res.status(201).json({ data: await resendDelivery(deps, null, req.params.id) });
  });
  router.post('/internal/webhook-endpoints/:id/enable', async (req, res) => {
    if (!(await findWebhookEndpoint(deps.db, req.params.id))) throw noSuchEndpoint();
    const { recoverSince } = parseWith(ZEnableWebhookEndpoint, req.body ?? {}, 'body');
    const now = deps.now();
    const range =
      recoverSince === undefined ? null : recoveryRange({ since: recoverSince }, now, { since: 'recoverSince', until: 'recoverSince' });
    // Re-enabled and recovered together: the endpoint's row lock (the update) keeps out a concurrent recovery.
    const { row, recovery } = await deps.db.transaction().execute(async (tx) => {
      const row = await updateWebhookEndpoint(tx, req.params.id, { status: 'active', disabled_reason: null });
      if (!row) throw noSuchEndpoint();
      return { row, recovery: range ? await recoverDeliveries(tx, row, range, now) : null };
    });
    res.json({ data: presentWebhookEndpoint(row), ...(recovery ? { meta: { recovery } } : {}) });
  });
  router.post('/internal/webhook-endpoints/:id/recover', async (req, res) => {
    if (!(await findWebhookEndpoint(deps.db, req.params.id))) throw noSuchEndpoint();
    const body = parseWith(ZRecoverWebhookDeliveries, req.body ?? {}, 'body');
    const now = deps.now();
    res
      .status(202)
      .json({ data: await recoverEndpoint(deps.db, req.params.id, recoveryRange(body, now, { since: 'since', until: 'until' }), now) });
  });
}

const noSuchEndpoint = () => new AppError('not_found', 'No such webhook endpoint.');
