import type { Router } from 'express';
import { ZApproveConnectLink, ZCreateConnectLink, ZCreateIntegrator, ZUpdateIntegrator } from '@partner/contracts/console';
import { listGrants } from './grants.repository.js';
import { parseWith } from '@partner/http';
import type { ConsoleDeps } from '../deps.js';
import {
  approveConnectLink,
  createConnectLink,
  createIntegrator,
  getIntegrator,
  patchIntegrator,
  presentGrant,
  revokeGrantById,
} from './integrators.service.js';

export function registerIntegratorRoutes(router: Router, deps: ConsoleDeps): void {
  router.post('/console/integrators', async (req, res) => {
    res.status(201).json({ data: await createIntegrator(deps, parseWith(ZCreateIntegrator, req.body, 'body')) });
  });
  router.get('/console/integrators/:id', async (req, res) => {
    res.json({ data: await getIntegrator(deps, req.params.id) });
  });
  router.patch('/console/integrators/:id', async (req, res) => {
    res.json({ data: await patchIntegrator(deps, req.params.id, parseWith(ZUpdateIntegrator, req.body, 'body')) });
  });
  router.post('/console/integrators/:id/connect-links', async (req, res) => {
    res.status(201).json({ data: await createConnectLink(deps, req.params.id, parseWith(ZCreateConnectLink, req.body ?? {}, 'body')) });
  });
  router.post('/console/connect-links/:token/approve', async (req, res) => {
    res.json({ data: await approveConnectLink(deps, req.params.token, parseWith(ZApproveConnectLink, req.body, 'body')) });
  });
  router.get('/console/integrators/:id/grants', async (req, res) => {
    res.json({ data: (await listGrants(deps.db, { integratorOrgId: req.params.id })).map(presentGrant) });
  });
  router.get('/console/restaurants/:id/grants', async (req, res) => {
    res.json({ data: (await listGrants(deps.db, { restaurantId: req.params.id })).map(presentGrant) });
  });
  router.post('/console/grants/:id/revoke', async (req, res) => {
    res.json({ data: await revokeGrantById(deps, req.params.id) });
  });
}
