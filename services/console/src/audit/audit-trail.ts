import type { RequestHandler, Router } from 'express';
import { z } from 'zod';
import { newId, parseWith, routeTemplate } from '@partner/http';
import { type CursorBinding, decodeListCursor, encodeListCursor, HmacKey } from '@partner/signing';
import { actorName, actorOf, requireOperator } from '../accounts/actor.js';
import type { ConsoleDeps } from '../deps.js';
import { type AuditEventRow, insertAuditEvent, listAuditEvents } from './audit.repository.js';

const CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Every change made through console is recorded once it has succeeded: who (`operator`, the admin
 * token's holder, or the signed-in account's id), what (method and route template, and the `:id` it
 * names), when, and the request id the caller got in X-Request-Id. Refused requests change nothing and
 * are not recorded. The record is written as the answer leaves; a failure to write it is logged with
 * the request id.
 */
export function recordChanges(deps: Pick<ConsoleDeps, 'db' | 'logger'>): RequestHandler {
  return (req, res, next) => {
    if (!CHANGING.has(req.method)) return next();
    res.once('finish', () => {
      const route = routeTemplate(req);
      if (res.statusCode >= 400 || !route) return;
      const params = req.params as Record<string, string | undefined>;
      insertAuditEvent(deps.db, {
        id: newId('aud'),
        actor: req.actor ? actorName(req.actor) : 'anonymous',
        action: `${req.method} ${route}`,
        target_id: params.id ?? null,
        request_id: req.requestId,
        status: res.statusCode,
      }).catch((err: unknown) => deps.logger.error({ err, requestId: req.requestId }, 'audit event not recorded'));
    });
    next();
  };
}

const ZAuditQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().min(1).optional(),
});

const BINDING: CursorBinding = { listing: 'audit-events', scope: 'operator', filters: [] };

/** `GET /console/audit-events`: the trail, newest first, `limit` at a time, with the API's signed cursors. */
export function registerAuditRoutes(router: Router, deps: ConsoleDeps): void {
  // Only console reads its cursors back: its own secret signs them.
  const cursorKey = new HmacKey(deps.adminToken);
  const cursorOf = (event: AuditEventRow) => encodeListCursor(cursorKey, BINDING, { at: event.occurred_at.toISOString(), id: event.id });
  const positionOf = (cursor: string) => {
    const { at, id } = decodeListCursor(cursorKey, cursor, BINDING);
    return { at: new Date(at!), id: id! };
  };
  router.get('/console/audit-events', async (req, res) => {
    requireOperator(actorOf(req), 'read the audit trail');
    const query = parseWith(ZAuditQuery, req.query, 'query');
    const events = await listAuditEvents(deps.db, { limit: query.limit, before: query.cursor ? positionOf(query.cursor) : undefined });
    res.json({
      data: events.map((event) => ({
        id: event.id,
        occurredAt: event.occurred_at.toISOString(),
        actor: event.actor,
        action: event.action,
        targetId: event.target_id,
        requestId: event.request_id,
        status: event.status,
      })),
      meta: { nextCursor: events.length === query.limit ? cursorOf(events.at(-1)!) : null },
    });
  });
}
