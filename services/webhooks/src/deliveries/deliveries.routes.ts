import type { Router } from 'express';
import { z } from 'zod';
import { keyPrincipal } from '@partner/auth';
import { ZDeliveryStatus, ZEventType, zId } from '@partner/contracts';
import { parseWith } from '@partner/kit';
import { zCursorParam, zLimit } from '@partner/platform';
import type { WebhooksDeps } from '../deps.js';
import { listDeliveries, resendDelivery } from './deliveries.service.js';

export const ZDeliveryQuery = z.strictObject({
  limit: zLimit,
  cursor: zCursorParam,
  endpointId: zId('we').optional(),
  eventId: zId('evt').optional(),
  eventType: ZEventType.optional(),
  status: ZDeliveryStatus.optional(),
});

export function registerDeliveryRoutes(router: Router, deps: WebhooksDeps): void {
  router.get('/v1/partner/webhook-deliveries', async (req, res) => {
    res.json(await listDeliveries(deps, keyPrincipal(req.principal).owner, parseWith(ZDeliveryQuery, req.query, 'query')));
  });
  router.post('/v1/partner/webhook-deliveries/:id/resend', async (req, res) => {
    res.status(201).json({ data: await resendDelivery(deps, keyPrincipal(req.principal).owner, req.params.id) });
  });
}
