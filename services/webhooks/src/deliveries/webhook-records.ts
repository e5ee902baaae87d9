import { AppError, type TWebhookDelivery, type TWebhookEndpoint } from '@partner/contracts';
import {
  type Db,
  type Executor,
  findGrantedPairs,
  findLapsedRestaurantIds,
  type Owner,
  type WebhookDeliveryRow,
  type WebhookEndpointRow,
} from '@partner/db';
import { newId } from '@partner/http';
import { decodeListCursor, encodeListCursor, type HmacKey } from '@partner/signing';
import {
  type DeliveryFilter,
  bringAttemptForward,
  findOwnedDelivery,
  insertDeliveries,
  lockAttemptUnderway,
  lockEventRestaurants,
  lockWebhookEndpoint,
  listOwnedDeliveries,
  listOwnedDeliveryAttempts,
} from '../webhooks.repository.js';
import { eventBody } from '../dispatcher/send-event.js';

// Webhook records as both the Partner API (an owner's own) and the dashboard (console's operator
// routes, any owner) show them.

export const presentWebhookEndpoint = (row: WebhookEndpointRow): TWebhookEndpoint => ({
  id: row.id,
  url: row.url,
  enabledEvents: row.enabled_events as TWebhookEndpoint['enabledEvents'],
  description: row.description,
  status: row.status,
  disabledReason: row.disabled_reason,
  signatureScheme: row.signature_scheme,
  createdAt: row.created_at.toISOString(),
});

export const presentDelivery = (row: WebhookDeliveryRow): TWebhookDelivery => ({
  id: row.id,
  eventId: row.event_id,
  eventType: row.event_type as TWebhookDelivery['eventType'],
  endpointId: row.endpoint_id,
  attempt: row.attempt,
  status: row.status,
  responseStatus: row.response_status,
  durationMs: row.duration_ms,
  error: row.error,
  createdAt: row.created_at.toISOString(),
  nextAttemptAt: row.next_attempt_at ? row.next_attempt_at.toISOString() : null,
});

/**
 * The delivery log of an owner (null: every owner, for the dashboard), newest first. Cursors are bound
 * to the owner and the filters like every cursor of ours.
 */
export async function listDeliveries(
  deps: { db: Executor; cursorKey: HmacKey },
  owner: Owner | null,
  query: DeliveryFilter & { limit: number; cursor?: string },
) {
  const { limit, cursor, ...filter } = query;
  const binding = {
    listing: 'deliveries',
    scope: owner?.id ?? '*',
    filters: [filter.endpointId ?? null, filter.eventId ?? null, filter.eventType ?? null, filter.status ?? null],
  };
  const position = cursor ? decodeListCursor(deps.cursorKey, cursor, binding) : null;
  const before = position ? { createdAt: new Date(position.createdAt!), id: position.id! } : null;
  const rows = await listOwnedDeliveries(deps.db, owner, filter, { before, limit: limit + 1 });
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  const nextCursor =
    rows.length > limit && last
      ? encodeListCursor(deps.cursorKey, binding, { createdAt: last.created_at.toISOString(), id: last.id })
      : null;
  return { data: page.map(presentDelivery), meta: { nextCursor } };
}

/**
 * One delivery with what it carried: the payload as the receiver got it (null for a test event, for an
 * event never sent there, or once retention has removed it), and every attempt at sending that event
 * there, with its answer. A delivery to another owner's endpoint (an owner given) is as missing as none.
 */
export async function showDelivery(deps: { db: Executor }, owner: Owner | null, id: string) {
  const attempts = await listOwnedDeliveryAttempts(deps.db, owner, id);
  const delivery = attempts.find((attempt) => attempt.id === id);
  if (!delivery) throw new AppError('not_found', 'No such webhook delivery.');
  // Only what went out: a held or skipped event (a lapsed plan, an ended grant) is not the receiver's to read.
  const sent = attempts.some((attempt) => attempt.status === 'succeeded' || attempt.status === 'failed');
  const { kept_event_id: eventId, kept_event_type: type, kept_event_created_at: createdAt, kept_event_data: data } = delivery;
  return {
    ...presentDelivery(delivery),
    payload: eventId !== null && sent ? eventBody({ id: eventId, type: type!, createdAt: createdAt!, data }) : null,
    attempts: attempts.map(presentDelivery),
  };
}

/**
 * Sends the same event again (same evt_ id) as a new delivery, attempt 1, due now; or held, like any
 * event of a restaurant whose subscription or Partner API add-on has lapsed (spec: held up to 72 hours,
 * delivered on renewal). An integrator whose grant has ended gets nothing more of the restaurant.
 * While the event is still under way to the endpoint (a retry waiting, or held), no second delivery
 * is made: that attempt is brought forward to now (`created: false`), so a resend, or a double click,
 * never starts a second chain of retries.
 */
export async function resendDelivery(
  deps: { db: Db; now: () => Date },
  owner: Owner | null,
  id: string,
): Promise<{ delivery: TWebhookDelivery; created: boolean }> {
  return deps.db.transaction().execute((tx) => resendIn(tx, deps.now(), owner, id));
}

async function resendIn(tx: Executor, now: Date, owner: Owner | null, id: string) {
  const original = await findOwnedDelivery(tx, owner, id);
  if (!original) throw new AppError('not_found', 'No such webhook delivery.');
  // A test event is made and sent in one request and kept nowhere else: there is nothing to queue again.
  if (original.event_type === 'ping') {
    throw new AppError(
      'conflict',
      `A test event is not resent: send a new one (POST /v1/partner/webhook-endpoints/${original.endpoint_id}/test).`,
    );
  }
  // Locked: resends and recoveries to one endpoint run one by one, each seeing what the other queued.
  const endpoint = await lockWebhookEndpoint(tx, original.endpoint_id);
  if (!endpoint) throw new AppError('not_found', 'No such webhook delivery.');
  if (endpoint.status !== 'active') {
    throw new AppError('conflict', 'The endpoint is disabled. Re-enable it, then resend.');
  }
  const restaurants = await lockEventRestaurants(tx, [original.event_id]);
  // Retention took the delivery and its event since it was read; the lock keeps an event that is still there.
  if (!restaurants.has(original.event_id)) throw new AppError('not_found', 'No such webhook delivery.');
  const restaurantId = restaurants.get(original.event_id)!;
  if (endpoint.owner_kind === 'integrator' && !original.event_type.startsWith('grant.')) {
    const granted = (await findGrantedPairs(tx, [{ restaurantId, integratorOrgId: endpoint.owner_id }], 'menu:read')).size > 0;
    if (!granted) {
      throw new AppError('conflict', "The restaurant's grant to this organisation has ended: its events are no longer sent here.");
    }
  }
  const underway = await lockAttemptUnderway(tx, original.event_id, original.endpoint_id);
  if (underway) return { delivery: presentDelivery(await bringAttemptForward(tx, underway, now)), created: false };
  const held = (await findLapsedRestaurantIds(tx, [restaurantId])).has(restaurantId);
  const row = sendAgain(original, original.endpoint_id, { held, now });
  await insertDeliveries(tx, [row]);
  return {
    delivery: presentDelivery({ ...row, response_status: null, duration_ms: null, error: null, claimed_until: null }),
    created: true,
  };
}

/**
 * A new first attempt of an event sent again to an endpoint (resend, recover): the same event id, a
 * new delivery id; held, not sent, while the event's restaurant has lapsed.
 */
export function sendAgain(event: { event_id: string; event_type: string }, endpointId: string, options: { held: boolean; now: Date }) {
  return {
    id: newId('whd'),
    event_id: event.event_id,
    event_type: event.event_type,
    endpoint_id: endpointId,
    attempt: 1,
    status: options.held ? ('held' as const) : ('pending' as const),
    next_attempt_at: options.held ? null : options.now,
    created_at: options.now,
  };
}
