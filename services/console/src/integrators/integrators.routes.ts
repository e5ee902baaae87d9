import type { Request, Router } from 'express';
import { AppError } from '@partner/contracts';
import { ZApproveConnectLink, ZCreateConnectLink, ZCreateIntegrator, ZUpdateIntegrator } from '@partner/contracts/console';
import { parseWith } from '@partner/http';
import { actorOf, reach, reachableOwners, requireOperator, requireOwnerRole } from '../accounts/actor.js';
import { reachGrant } from '../accounts/reach-rows.js';
import type { ConsoleDeps } from '../deps.js';
import { listGrants } from './grants.repository.js';
import {
  approveConnectLink,
  createConnectLink,
  createIntegrator,
  getIntegrator,
  listIntegrators,
  patchIntegrator,
  pendingConnectLinks,
  presentNamedGrant,
  previewConnectLink,
  revokeGrantById,
} from './integrators.service.js';

export function registerIntegratorRoutes(router: Router, deps: ConsoleDeps): void {
  const reachIntegrator = (req: Request<{ id: string }>) => reach(actorOf(req), { kind: 'integrator', id: req.params.id });
  router.post('/console/integrators', async (req, res) => {
    requireOperator(actorOf(req), 'create integrator orgs');
    res.status(201).json({ data: await createIntegrator(deps, parseWith(ZCreateIntegrator, req.body, 'body')) });
  });
  router.get('/console/integrators', async (req, res) => {
    res.json({ data: await listIntegrators(deps, reachableOwners(actorOf(req), 'integrator')) });
  });
  router.get('/console/integrators/:id', async (req, res) => {
    reachIntegrator(req);
    res.json({ data: await getIntegrator(deps, req.params.id) });
  });
  router.patch('/console/integrators/:id', async (req, res) => {
    reachIntegrator(req);
    const body = parseWith(ZUpdateIntegrator, req.body, 'body');
    if (body.suspended !== undefined) requireOperator(actorOf(req), 'suspend integrators');
    res.json({ data: await patchIntegrator(deps, req.params.id, body) });
  });
  router.post('/console/integrators/:id/connect-links', async (req, res) => {
    reachIntegrator(req);
    res.status(201).json({ data: await createConnectLink(deps, req.params.id, parseWith(ZCreateConnectLink, req.body ?? {}, 'body')) });
  });
  router.get('/console/integrators/:id/connect-links', async (req, res) => {
    reachIntegrator(req);
    res.json({ data: await pendingConnectLinks(deps, req.params.id) });
  });
  // Whoever holds the token may see who asks for what: the owner it was sent to, before consenting.
  router.get('/console/connect-links/:token', async (req, res) => {
    actorOf(req);
    res.json({ data: await previewConnectLink(deps, req.params.token) });
  });
  router.post('/console/connect-links/:token/approve', async (req, res) => {
    const body = parseWith(ZApproveConnectLink, req.body, 'body');
    const actor = actorOf(req);
    // Consent is an owner's: a restaurant the person may not manage is refused as if it did not exist.
    if (actor.kind === 'account' && !actor.memberships.some((m) => m.kind === 'restaurant' && m.id === body.restaurantId)) {
      throw new AppError('invalid_request', 'restaurantId: no such restaurant.', { param: 'restaurantId' });
    }
    requireOwnerRole(actor, { kind: 'restaurant', id: body.restaurantId }, 'give an integrator access to it');
    res.json({ data: await approveConnectLink(deps, req.params.token, body) });
  });
  router.get('/console/integrators/:id/grants', async (req, res) => {
    reachIntegrator(req);
    res.json({ data: (await listGrants(deps.db, { integratorOrgId: req.params.id })).map(presentNamedGrant) });
  });
  router.get('/console/restaurants/:id/grants', async (req, res) => {
    reach(actorOf(req), { kind: 'restaurant', id: req.params.id });
    res.json({ data: (await listGrants(deps.db, { restaurantId: req.params.id })).map(presentNamedGrant) });
  });
  router.post('/console/grants/:id/revoke', async (req, res) => {
    await reachGrant(deps.db, actorOf(req), req.params.id);
    res.json({ data: await revokeGrantById(deps, req.params.id) });
  });
}
