import type { RequestHandler, Router } from 'express';
import type { ConsoleDeps } from '../deps.js';

/**
 * The dashboard's webhook actions, for any owner: the delivery log, resend, re-enabling an endpoint
 * (with `recoverSince`, recovering it in the same step) and recovering it. The webhooks service
 * validates the bodies.
 */
export function registerWebhookRoutes(router: Router, deps: ConsoleDeps): void {
  const forward =
    (method: 'GET' | 'POST', path: (id: string) => string): RequestHandler<{ id?: string }> =>
    async (req, res) => {
      const answer = await deps.webhooks.call({
        method,
        path: path(encodeURIComponent(req.params.id ?? '')),
        query: req.query,
        body: req.body as unknown,
        requestId: req.requestId,
      });
      res.status(answer.status).json(answer.body);
    };
  router.get(
    '/console/webhook-deliveries',
    forward('GET', () => '/internal/webhook-deliveries'),
  );
  router.post(
    '/console/webhook-deliveries/:id/resend',
    forward('POST', (id) => `/internal/webhook-deliveries/${id}/resend`),
  );
  router.post(
    '/console/webhook-endpoints/:id/enable',
    forward('POST', (id) => `/internal/webhook-endpoints/${id}/enable`),
  );
  router.post(
    '/console/webhook-endpoints/:id/recover',
    forward('POST', (id) => `/internal/webhook-endpoints/${id}/recover`),
  );
}
