import type { RequestHandler, Router } from 'express';
import { z } from 'zod';
import { AppError } from '@partner/contracts';
import { newId, parseWith } from '@partner/http';
import type { ConsoleDeps } from '../deps.js';
import { type AuditEventRow, insertAuditEvent, listAuditEvents } from './audit.repository.js';

const CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Every change made through console is recorded once it has succeeded: who (the admin token's holder,
 * `operator`, until the dashboard signs people in), what (method and route template, and the `:id` it
 * names), when, and the request id the caller got in X-Request-Id. Refused requests change nothing and
 * are not recorded. The record is written as the answer leaves; a failure to write it is logged with
 * the request id.
 */
export function recordChanges(deps: Pick<ConsoleDeps, 'db' | 'logger'>): RequestHandler {
  return (req, res, next) => {
    if (!CHANGING.has(req.method)) return next();
    res.once('finish', () => {
      const route = req.route as { path: unknown } | undefined;
      if (res.statusCode >= 400 || !route) return;
      const params = req.params as Record<string, string | undefined>;
      insertAuditEvent(deps.db, {
        id: newId('aud'),
        actor: 'operator',
        action: `${req.method} ${req.baseUrl}${String(route.path)}`,
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

/** A page's continuation: the last event's time and id, opaque to callers. */
const cursorOf = (event: AuditEventRow) => Buffer.from(`${event.occurred_at.toISOString()}|${event.id}`).toString('base64url');

function parseCursor(cursor: string): { at: Date; id: string } {
  const [at, id] = Buffer.from(cursor, 'base64url').toString().split('|');
  const when = new Date(at ?? '');
  if (!id || Number.isNaN(when.getTime()))
    throw new AppError('invalid_cursor', 'This cursor is not one this list gave out.', { param: 'cursor' });
  return { at: when, id };
}

/** `GET /console/audit-events`: the trail, newest first, `limit` at a time. */
export function registerAuditRoutes(router: Router, deps: ConsoleDeps): void {
  router.get('/console/audit-events', async (req, res) => {
    const query = parseWith(ZAuditQuery, req.query, 'query');
    const events = await listAuditEvents(deps.db, { limit: query.limit, before: query.cursor ? parseCursor(query.cursor) : undefined });
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
