import type { Router } from 'express';
import { AppError, ZDeliveryListQuery, ZEnableWebhookEndpoint, ZRecoverWebhookDeliveries } from '@partner/contracts';
import type { OwnerRef } from '@partner/auth';
import type { Executor } from '@partner/db';
import { operatorScope, parseWith } from '@partner/http';
import type { WebhooksDeps } from '../deps.js';
import { findOwnedWebhookEndpoint, findWebhookEndpoint, updateWebhookEndpoint } from '../webhooks.repository.js';
import { recoverDeliveries, recoverEndpoint, recoveryRange } from './recovery.js';
import { listDeliveries, presentWebhookEndpoint, resendDelivery, showDelivery } from './webhook-records.js';

/**
 * The dashboard's webhook actions. Console calls them with an operator token (any owner) or, for a
 * signed-in person, an owner token (that owner's only): the webhook tables are this service's, so no
 * other service writes them. Never routed by the gateway.
 */
export function registerOperatorRoutes(router: Router, deps: WebhooksDeps): void {
  router.use('/internal', (req, _res, next) => {
    operatorScope(req.principal);
    next();
  });
  router.get('/internal/webhook-deliveries', async (req, res) => {
    res.json(await listDeliveries(deps, operatorScope(req.principal), parseWith(ZDeliveryListQuery, req.query, 'query')));
  });
  router.get('/internal/webhook-deliveries/:id', async (req, res) => {
    res.json({ data: await showDelivery(deps, operatorScope(req.principal), req.params.id) });
  });
  router.post('/internal/webhook-deliveries/:id/resend', async (req, res) => {
    const { delivery, created } = await resendDelivery(deps, operatorScope(req.principal), req.params.id);
    res.status(created ? 201 : 200).json({ data: delivery });
  });
  router.post('/internal/webhook-endpoints/:id/enable', async (req, res) => {
    const scope = operatorScope(req.principal);
    if (!(await findScopedEndpoint(deps.db, scope, req.params.id))) throw noSuchEndpoint();
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
    if (!(await findScopedEndpoint(deps.db, operatorScope(req.principal), req.params.id))) throw noSuchEndpoint();
    const body = parseWith(ZRecoverWebhookDeliveries, req.body ?? {}, 'body');
    const now = deps.now();
    res
      .status(202)
      .json({ data: await recoverEndpoint(deps.db, req.params.id, recoveryRange(body, now, { since: 'since', until: 'until' }), now) });
  });
}

/** Any owner's endpoint for the operator; for a signed-in person, their owner's only (404 otherwise). */
const findScopedEndpoint = (db: Executor, scope: OwnerRef | null, id: string) =>
  scope ? findOwnedWebhookEndpoint(db, scope, id) : findWebhookEndpoint(db, id);

const noSuchEndpoint = () => new AppError('not_found', 'No such webhook endpoint.');
