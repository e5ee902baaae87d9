import type { Request, RequestHandler, Router } from 'express';
import { actorOf, type OwnerRef, reach, requireOperator } from '../accounts/actor.js';
import type { OwnerKind } from '../accounts/accounts.repository.js';
import type { ConsoleDeps } from '../deps.js';

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
type Params = { id?: string; ownerId?: string };

/** An owner's webhook routes under `/console/{restaurants|integrators}/:ownerId/`, and where each goes. */
export const OWNED_WEBHOOK_ROUTES: Array<[Method, string, (id: string) => string]> = [
  ['GET', 'webhook-endpoints', () => '/v1/partner/webhook-endpoints'],
  ['POST', 'webhook-endpoints', () => '/v1/partner/webhook-endpoints'],
  ['GET', 'webhook-endpoints/:id', (id) => `/v1/partner/webhook-endpoints/${id}`],
  ['PATCH', 'webhook-endpoints/:id', (id) => `/v1/partner/webhook-endpoints/${id}`],
  ['DELETE', 'webhook-endpoints/:id', (id) => `/v1/partner/webhook-endpoints/${id}`],
  ['POST', 'webhook-endpoints/:id/rotate-secret', (id) => `/v1/partner/webhook-endpoints/${id}/rotate-secret`],
  ['POST', 'webhook-endpoints/:id/test', (id) => `/v1/partner/webhook-endpoints/${id}/test`],
  ['POST', 'webhook-endpoints/:id/recover', (id) => `/v1/partner/webhook-endpoints/${id}/recover`],
  ['POST', 'webhook-endpoints/:id/enable', (id) => `/internal/webhook-endpoints/${id}/enable`],
  ['GET', 'webhook-deliveries', () => '/v1/partner/webhook-deliveries'],
  ['GET', 'webhook-deliveries/:id', (id) => `/internal/webhook-deliveries/${id}`],
  ['POST', 'webhook-deliveries/:id/resend', (id) => `/v1/partner/webhook-deliveries/${id}/resend`],
];

/**
 * The dashboard's webhook actions, answered by the webhooks service, which validates the bodies.
 * Operators act on every owner's (`/console/webhook-…`); a signed-in person on the endpoints and
 * deliveries of an owner they manage (`/console/restaurants/{id}/webhook-…`, `/console/integrators/{id}/webhook-…`),
 * which the webhooks service limits to that owner.
 */
export function registerWebhookRoutes(router: Router, deps: ConsoleDeps): void {
  const forward =
    (method: Method, path: (id: string) => string, actingFor: (req: Request<Params>) => OwnerRef | undefined): RequestHandler<Params> =>
    async (req, res) => {
      const answer = await deps.webhooks.call({
        method,
        path: path(encodeURIComponent(req.params.id ?? '')),
        query: req.query,
        body: req.body as unknown,
        requestId: req.requestId,
        actingFor: actingFor(req),
      });
      res.status(answer.status).json(answer.body);
    };

  const everyOwner = (req: Request<Params>) => {
    requireOperator(actorOf(req), "act on every owner's webhooks");
    return undefined;
  };
  router.get(
    '/console/webhook-deliveries',
    forward('GET', () => '/internal/webhook-deliveries', everyOwner),
  );
  router.get(
    '/console/webhook-deliveries/:id',
    forward('GET', (id) => `/internal/webhook-deliveries/${id}`, everyOwner),
  );
  router.post(
    '/console/webhook-deliveries/:id/resend',
    forward('POST', (id) => `/internal/webhook-deliveries/${id}/resend`, everyOwner),
  );
  router.post(
    '/console/webhook-endpoints/:id/enable',
    forward('POST', (id) => `/internal/webhook-endpoints/${id}/enable`, everyOwner),
  );
  router.post(
    '/console/webhook-endpoints/:id/recover',
    forward('POST', (id) => `/internal/webhook-endpoints/${id}/recover`, everyOwner),
  );

  const OWNERS: Array<[segment: string, kind: OwnerKind]> = [
    ['restaurants', 'restaurant'],
    ['integrators', 'integrator'],
  ];
  for (const [segment, kind] of OWNERS) {
    const theirs = (req: Request<Params>): OwnerRef => {
      const owner: OwnerRef = { kind, id: req.params.ownerId ?? '' };
      reach(actorOf(req), owner);
      return owner;
    };
    for (const [method, route, path] of OWNED_WEBHOOK_ROUTES) {
      const register = { GET: router.get, POST: router.post, PATCH: router.patch, DELETE: router.delete }[method].bind(router);
      register(`/console/${segment}/:ownerId/${route}`, forward(method, path, theirs));
    }
  }
}
