import type { Router } from 'express';
import { ownerPrincipal, parseWith } from '@partner/http';
import { ZCreateWebhookEndpoint, ZListQuery, ZRotateWebhookSecret, ZUpdateWebhookEndpoint } from '@partner/contracts';
import type { WebhooksDeps } from '../deps.js';
import {
  createEndpoint,
  deleteEndpoint,
  getEndpoint,
  listEndpoints,
  patchEndpoint,
  recoverOwnedEndpoint,
  rotateSecret,
  sendTestEvent,
} from './endpoints.service.js';

export function registerEndpointRoutes(router: Router, deps: WebhooksDeps): void {
  const base = '/v1/partner/webhook-endpoints';
  router.post(base, async (req, res) => {
    res
      .status(201)
      .json({ data: await createEndpoint(deps, ownerPrincipal(req.principal), parseWith(ZCreateWebhookEndpoint, req.body, 'body')) });
  });
  router.get(base, async (req, res) => {
    res.json(await listEndpoints(deps, ownerPrincipal(req.principal), parseWith(ZListQuery, req.query, 'query')));
  });
  router.get(`${base}/:id`, async (req, res) => {
    res.json({ data: await getEndpoint(deps, ownerPrincipal(req.principal), req.params.id) });
  });
  router.patch(`${base}/:id`, async (req, res) => {
    const body = parseWith(ZUpdateWebhookEndpoint, req.body, 'body');
    res.json({ data: await patchEndpoint(deps, ownerPrincipal(req.principal), req.params.id, body) });
  });
  router.delete(`${base}/:id`, async (req, res) => {
    res.json({ data: await deleteEndpoint(deps, ownerPrincipal(req.principal), req.params.id) });
  });
  router.post(`${base}/:id/rotate-secret`, async (req, res) => {
    const body = parseWith(ZRotateWebhookSecret, req.body ?? {}, 'body');
    res.json({ data: await rotateSecret(deps, ownerPrincipal(req.principal), req.params.id, body.overlapSeconds) });
  });
  router.post(`${base}/:id/test`, async (req, res) => {
    res.json({ data: await sendTestEvent(deps, ownerPrincipal(req.principal), req.params.id) });
  });
  router.post(`${base}/:id/recover`, async (req, res) => {
    res.status(202).json({ data: await recoverOwnedEndpoint(deps, ownerPrincipal(req.principal), req.params.id, req.body) });
  });
}
