import { AppError, type TWebhookRecovery } from '@partner/contracts';
import { type Db, type Executor, findGrantedPairs, findLapsedRestaurantIds, grantPairKey, type WebhookEndpointRow } from '@partner/db';
import {
  type DeliveryRange,
  findEventsDeliveredOrUnderway,
  findEventsWithUndeliveredAttempts,
  findRecoverableRestaurantIds,
  type RecoverableEvent,
  insertDeliveries,
  lockEventRestaurants,
  lockWebhookEndpoint,
} from '../webhooks.repository.js';
import { sendAgain } from './webhook-records.js';

// Recover (issue 15): after a long outage, every event an endpoint did not receive goes out again in
// one request, instead of one resend per delivery.

/**
 * How far back a recovery reaches: the delivery log's retention is never shorter (config.ts). A bound
 * keeps one request's work and what receivers must deduplicate sane (the tombstone retention of
 * incremental sync is 30 days too).
 */
export const RECOVERY_WINDOW_DAYS = 30;
/** Events one recovery takes; past it the answer says `truncated` and the same request takes the next. */
export const MAX_RECOVERED_EVENTS = 10_000;

const DAY_MS = 24 * 3600_000;

/** The range asked for, checked against the clock; `param` names the field that carried `since`. */
export function recoveryRange(body: { since: string; until?: string }, now: Date, param: { since: string; until: string }): DeliveryRange {
  const since = new Date(body.since);
  if (since.getTime() > now.getTime())
    throw new AppError('invalid_request', 'The recovery cannot start in the future.', { param: param.since });
  if (since.getTime() < now.getTime() - RECOVERY_WINDOW_DAYS * DAY_MS) {
    throw new AppError('invalid_request', `A recovery reaches back at most ${RECOVERY_WINDOW_DAYS} days.`, { param: param.since });
  }
  const until = body.until === undefined ? now : new Date(body.until);
  if (until.getTime() <= since.getTime()) throw new AppError('invalid_request', 'until must be later than since.', { param: param.until });
  return { since, until };
}

export const endpointDisabled = () =>
  new AppError('endpoint_disabled', 'The endpoint is disabled. Re-enable it first, then recover its deliveries.');

/**
 * One new delivery (same evt_ id, attempt 1) per event the endpoint has not received whose deliveries
 * fall in the range (see findEventsWithUndeliveredAttempts and findEventsDeliveredOrUnderway), with the rules of a resend: held while the
 * restaurant has lapsed, and nothing of a restaurant to an integrator without an active grant with
 * `menu:read` on it. Runs in the caller's transaction, with the endpoint locked: two recoveries of
 * one endpoint cannot both queue an event.
 */
export async function recoverDeliveries(
  tx: Executor,
  endpoint: WebhookEndpointRow,
  range: DeliveryRange,
  now: Date,
): Promise<TWebhookRecovery> {
  let reach: string[] | null = null;
  if (endpoint.owner_kind === 'integrator') {
    const pairs = (await findRecoverableRestaurantIds(tx, endpoint.id, range)).map((restaurantId) => ({
      restaurantId,
      integratorOrgId: endpoint.owner_id,
    }));
    const granted = await findGrantedPairs(tx, pairs, 'menu:read');
    reach = pairs.filter((pair) => granted.has(grantPairKey(pair))).map((pair) => pair.restaurantId);
  }
  // An event counts once, however many of its attempts failed, and not at all if the endpoint has it
  // (acknowledged, or pending or held): so a recovery done twice finds nothing the second time.
  const taken: RecoverableEvent[] = [];
  let truncated = false;
  for (let afterSeq = '0'; ;) {
    const page = await findEventsWithUndeliveredAttempts(tx, endpoint.id, range, {
      afterSeq,
      limit: MAX_RECOVERED_EVENTS + 1,
      restaurantIds: reach,
    });
    const reached = await findEventsDeliveredOrUnderway(
      tx,
      endpoint.id,
      page.map((event) => event.event_id),
    );
    taken.push(...page.filter((event) => !reached.has(event.event_id)));
    if (taken.length > MAX_RECOVERED_EVENTS) {
      truncated = true;
      taken.length = MAX_RECOVERED_EVENTS;
      break;
    }
    if (page.length <= MAX_RECOVERED_EVENTS) break;
    afterSeq = page.at(-1)!.seq;
  }
  // Held in place until the new deliveries are committed (see lockEventRestaurants).
  const retained = await lockEventRestaurants(
    tx,
    taken.map((event) => event.event_id),
  );
  const lapsed = await findLapsedRestaurantIds(tx, [...new Set(taken.map((event) => event.restaurant_id))]);
  const rows = taken
    .filter((event) => retained.has(event.event_id))
    .map((event) => sendAgain(event, endpoint.id, { held: lapsed.has(event.restaurant_id), now }));
  await insertDeliveries(tx, rows);
  return {
    endpointId: endpoint.id,
    since: range.since.toISOString(),
    until: range.until.toISOString(),
    queued: rows.length,
    held: rows.filter((row) => row.status === 'held').length,
    truncated,
  };
}

/** Locks the endpoint and recovers, refusing a disabled one. */
export async function recoverEndpoint(db: Db, endpointId: string, range: DeliveryRange, now: Date): Promise<TWebhookRecovery> {
  return db.transaction().execute(async (tx) => {
    const endpoint = await lockWebhookEndpoint(tx, endpointId);
    if (!endpoint) throw new AppError('not_found', 'No such webhook endpoint.');
    if (endpoint.status !== 'active') throw endpointDisabled();
    return recoverDeliveries(tx, endpoint, range, now);
  });
}
