import { sql } from 'kysely';
import type { DeliveryStatus, Executor, GrantPair, OutboxEventRow, Owner, WebhookDeliveryRow, WebhookEndpointRow } from '@partner/db';

/**
 * `sealedSecret`: the signing secret as `sealEndpointSecret` sealed it (secrets are never stored in
 * clear). `signatureScheme` defaults to the spec's X-Service-Signature.
 */
export async function insertWebhookEndpoint(
  db: Executor,
  row: {
    id: string;
    owner: Owner;
    url: string;
    enabledEvents: string[];
    description: string | null;
    sealedSecret: string;
    signatureScheme?: WebhookEndpointRow['signature_scheme'];
  },
): Promise<WebhookEndpointRow> {
  return db
    .insertInto('webhook_endpoints')
    .values({
      id: row.id,
      owner_kind: row.owner.kind,
      owner_id: row.owner.id,
      url: row.url,
      enabled_events: row.enabledEvents,
      description: row.description,
      secret: row.sealedSecret,
      signature_scheme: row.signatureScheme,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** An endpoint of this owner; another owner's endpoint is as missing as a deleted one. */
export async function findOwnedWebhookEndpoint(db: Executor, owner: Owner, id: string): Promise<WebhookEndpointRow | undefined> {
  return db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('id', '=', id)
    .where('owner_kind', '=', owner.kind)
    .where('owner_id', '=', owner.id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

export async function findWebhookEndpoint(db: Executor, id: string): Promise<WebhookEndpointRow | undefined> {
  return db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();
}

/** A page of an owner's endpoints, newest first, after `before` (the last row of the previous page). */
export async function listOwnedWebhookEndpoints(
  db: Executor,
  owner: Owner,
  page: { before: { createdAt: Date; id: string } | null; limit: number },
): Promise<WebhookEndpointRow[]> {
  let query = db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('owner_kind', '=', owner.kind)
    .where('owner_id', '=', owner.id)
    .where('deleted_at', 'is', null);
  if (page.before) {
    const { createdAt, id } = page.before;
    query = query.where((eb) => eb.or([eb('created_at', '<', createdAt), eb.and([eb('created_at', '=', createdAt), eb('id', '<', id)])]));
  }
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(page.limit).execute();
}

/** Takes the owner's endpoint lock until the transaction ends: creations of one owner count one by one. */
export async function lockOwnerEndpoints(tx: Executor, owner: Owner): Promise<number> {
  await sql`select pg_advisory_xact_lock(${0x5745}, hashtext(${`${owner.kind}:${owner.id}`}))`.execute(tx);
  const { count } = await tx
    .selectFrom('webhook_endpoints')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('owner_kind', '=', owner.kind)
    .where('owner_id', '=', owner.id)
    .where('deleted_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(count);
}

/** Disables the endpoint if it is active (and not deleted); false when it was not. */
export async function disableActiveEndpoint(tx: Executor, id: string, reason: string): Promise<boolean> {
  const result = await tx
    .updateTable('webhook_endpoints')
    .set({ status: 'disabled', disabled_reason: reason, updated_at: sql<Date>`now()` })
    .where('id', '=', id)
    .where('status', '=', 'active')
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function updateWebhookEndpoint(
  db: Executor,
  id: string,
  changes: Partial<
    Pick<WebhookEndpointRow, 'url' | 'enabled_events' | 'description' | 'status' | 'disabled_reason' | 'signature_scheme' | 'deleted_at'>
  >,
): Promise<WebhookEndpointRow | undefined> {
  return db
    .updateTable('webhook_endpoints')
    .set({ ...changes, updated_at: sql<Date>`now()` })
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
}

/**
 * A new signing secret (sealed); the current one becomes the previous, signing beside it until
 * `previousUntil`, or is dropped at once when that is null.
 */
export async function rotateWebhookEndpointSecret(
  db: Executor,
  id: string,
  rotation: { sealedSecret: string; previousUntil: Date | null },
): Promise<WebhookEndpointRow | undefined> {
  return db
    .updateTable('webhook_endpoints')
    .set((eb) => ({
      secret: rotation.sealedSecret,
      previous_secret: rotation.previousUntil ? eb.ref('secret') : null,
      previous_secret_expires_at: rotation.previousUntil,
      updated_at: sql<Date>`now()`,
    }))
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
}

/** Endpoints whose secrets are not all sealed under the key that seals now, after `afterId`, by id. */
export async function findEndpointsToReseal(db: Executor, currentPrefix: string, afterId: string, limit: number) {
  return db
    .selectFrom('webhook_endpoints')
    .select(['id', 'secret', 'previous_secret'])
    .where('id', '>', afterId)
    .where((eb) =>
      eb.or([
        eb('secret', 'not like', `${currentPrefix}%`),
        eb.and([eb('previous_secret', 'is not', null), eb('previous_secret', 'not like', `${currentPrefix}%`)]),
      ]),
    )
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** Writes an endpoint's secrets sealed again, unless they changed since they were read (a rotation meanwhile). */
export async function replaceSealedSecrets(
  db: Executor,
  read: { id: string; secret: string; previous_secret: string | null },
  resealed: { secret: string; previous_secret: string | null },
): Promise<boolean> {
  const { numUpdatedRows } = await db
    .updateTable('webhook_endpoints')
    .set(resealed)
    .where('id', '=', read.id)
    .where('secret', '=', read.secret)
    .where((eb) => (read.previous_secret === null ? eb('previous_secret', 'is', null) : eb('previous_secret', '=', read.previous_secret)))
    .executeTakeFirst();
  return numUpdatedRows > 0n;
}

/** Events not yet fanned out, oldest first, locked for this dispatcher (others skip them). */
export async function lockEventsToFanOut(tx: Executor, limit: number): Promise<OutboxEventRow[]> {
  return tx
    .selectFrom('outbox_events')
    .selectAll()
    .where('fanned_out_at', 'is', null)
    .orderBy('seq')
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .execute();
}

export interface FanOutTarget {
  endpoint_id: string;
  endpoint_status: 'active' | 'disabled';
  owner_kind: 'restaurant' | 'integrator';
  restaurant_lapsed: boolean;
}

/**
 * The endpoints an event goes to: the restaurant's own, and those of integrators holding an active
 * grant on it that includes `menu:read`; `grant.*` events go to the integrator they concern only. Each
 * with its event filter. Grants are read here, never written: the fan-out must see them in the same
 * statement.
 */
export async function findFanOutTargets(tx: Executor, event: OutboxEventRow): Promise<FanOutTarget[]> {
  const { rows } = await sql<FanOutTarget>`
    select e.id as endpoint_id, e.status as endpoint_status, e.owner_kind,
           coalesce(r.subscription_status <> 'active' or not r.partner_api_addon, false) as restaurant_lapsed
    from webhook_endpoints e
    left join restaurants r on r.id = ${event.restaurant_id}
    where e.deleted_at is null
      and (e.enabled_events @> array['*'] or e.enabled_events @> array[${event.type}])
      and (
        case when ${event.integrator_org_id}::text is not null
          then e.owner_kind = 'integrator' and e.owner_id = ${event.integrator_org_id}
          else (e.owner_kind = 'restaurant' and e.owner_id = ${event.restaurant_id})
            or (e.owner_kind = 'integrator' and e.owner_id in (
                 select g.integrator_org_id from grants g
                 where g.restaurant_id = ${event.restaurant_id} and g.status = 'active' and g.scopes @> array['menu:read']))
        end
      )
    order by e.id
  `.execute(tx);
  return rows;
}

/** A delivery row to insert; the outcome columns are set only for an attempt recorded already made (a test event's). */
export type NewDelivery = Pick<
  WebhookDeliveryRow,
  'id' | 'event_id' | 'event_type' | 'endpoint_id' | 'attempt' | 'status' | 'next_attempt_at' | 'created_at'
> &
  Partial<Pick<WebhookDeliveryRow, 'response_status' | 'duration_ms' | 'error'>>;

/**
 * One statement whatever the count: each column travels as one array, so a fan-out of 500 deliveries
 * is 11 parameters to bind and one plan, not 5,500 (which cost more to build, send and parse than the
 * rows cost to write).
 */
export async function insertDeliveries(tx: Executor, rows: readonly NewDelivery[]): Promise<void> {
  if (rows.length === 0) return;
  const column = <T>(pick: (row: NewDelivery) => T) => rows.map(pick);
  const at = (date: Date | null) => date?.toISOString() ?? null;
  await sql`
    insert into webhook_deliveries
      (id, event_id, event_type, endpoint_id, attempt, status, next_attempt_at, created_at, response_status, duration_ms, error)
    select * from unnest(
      ${column((row) => row.id)}::text[], ${column((row) => row.event_id)}::text[], ${column((row) => row.event_type)}::text[],
      ${column((row) => row.endpoint_id)}::text[], ${column((row) => row.attempt)}::int[], ${column((row) => row.status)}::text[],
      ${column((row) => at(row.next_attempt_at))}::timestamptz[], ${column((row) => at(row.created_at))}::timestamptz[],
      ${column((row) => row.response_status ?? null)}::int[], ${column((row) => row.duration_ms ?? null)}::int[],
      ${column((row) => row.error ?? null)}::text[]
    )
  `.execute(tx);
}

export async function markEventsFannedOut(tx: Executor, seqs: number[], at: Date): Promise<void> {
  if (seqs.length) await sql`update outbox_events set fanned_out_at = ${at} where seq = any(${seqs}::bigint[])`.execute(tx);
}

/**
 * Attempts whose lease ran out were taken by a dispatcher that died before recording an answer: the
 * request may or may not have reached the receiver. Each is closed as failed and replaced by a new
 * attempt row (a new delivery id, due now), so every delivery id a receiver sees is one send.
 */
export async function replaceAbandonedAttempts(db: Executor, now: Date): Promise<number> {
  const result = await sql`
    with abandoned as (
      update webhook_deliveries set status = 'failed', claimed_until = null, next_attempt_at = null,
             error = 'interrupted: the dispatcher stopped before it recorded an answer'
      where id in (
        select id from webhook_deliveries
        where status = 'pending' and claimed_until is not null and claimed_until < ${now}
        for update skip locked
      )
      returning event_id, event_type, endpoint_id, attempt
    )
    insert into webhook_deliveries (id, event_id, event_type, endpoint_id, attempt, status, next_attempt_at, created_at)
    select 'whd_' || replace(gen_random_uuid()::text, '-', ''), event_id, event_type, endpoint_id, attempt, 'pending', ${now}, ${now}
    from abandoned
  `.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/** A leased attempt with what sending it needs: its endpoint and its event (one query for all three). */
export interface ClaimedAttempt extends WebhookDeliveryRow {
  endpoint: Pick<
    WebhookEndpointRow,
    | 'id'
    | 'url'
    | 'status'
    | 'secret'
    | 'previous_secret'
    | 'previous_secret_expires_at'
    | 'signature_scheme'
    | 'owner_kind'
    | 'owner_id'
    | 'deleted_at'
  >;
  event: Pick<OutboxEventRow, 'id' | 'type' | 'created_at' | 'data' | 'restaurant_id' | 'trace_context'>;
  /** Read in the claim itself: whether the event's restaurant has lapsed, and whether an integrator endpoint's owner holds an active grant with the claim's scope on it (true for a restaurant's own). */
  reach: { lapsed: boolean; granted: boolean };
}

/** What a claim may take: `limit` attempts, and per owner at most `perOwner` with those already in flight. */
export interface ClaimShape {
  limit: number;
  perOwner: number;
  /** Attempts the claiming dispatcher holds per owner (`ownerKey`): in flight or waiting for a slot. */
  leased: ReadonlyMap<string, number>;
  /** The scope an integrator's grant needs for the restaurant's events (see `reach`). */
  scope: string;
  /** Successes to record in the same statement (one round trip for both). */
  acknowledged?: readonly Acknowledgement[];
}

/** An attempt the receiver acknowledged, not yet recorded. */
export interface Acknowledgement {
  id: string;
  responseStatus: number;
  durationMs: number;
}

/** Marks acknowledged attempts succeeded: a statement of its own, or a step of a claim. */
const succeededUpdate = (outcomes: readonly Acknowledgement[]) => sql`
  update webhook_deliveries d
  set status = 'succeeded', response_status = u.response_status, duration_ms = u.duration_ms, error = null,
      next_attempt_at = null, claimed_until = null
  from unnest(${outcomes.map((o) => o.id)}::text[], ${outcomes.map((o) => o.responseStatus)}::int[], ${outcomes.map((o) => o.durationMs)}::int[])
    as u(id, response_status, duration_ms)
  where d.id = u.id
`;

/** An endpoint owner as one string, the key of `ClaimShape.leased`. */
export const ownerKey = (endpoint: { owner_kind: string; owner_id: string }): string => `${endpoint.owner_kind}:${endpoint.owner_id}`;

/**
 * Leases due attempts, fair between owners: each owner's due attempts are taken in due order, and owners
 * take turns (every owner's first before anyone's second), each up to `perOwner` in flight. So an owner
 * whose many endpoints are slow fills only their own share while every other owner's attempts go at once.
 * Rows leased by a dispatcher that died come back when the lease runs out, so every attempt is made at
 * least once.
 */
export async function claimDueDeliveries(db: Executor, now: Date, leaseMs: number, shape: ClaimShape): Promise<ClaimedAttempt[]> {
  const owners = [...shape.leased.keys()];
  const counts = owners.map((owner) => shape.leased.get(owner)!);
  const { rows } = await sql<WebhookDeliveryRow & Pick<ClaimedAttempt, 'endpoint' | 'event' | 'reach'>>`
    with recursive recorded as (${succeededUpdate(shape.acknowledged ?? [])}), endpoints_due as (
      -- The endpoints with pending attempts, one index probe each (a skip scan).
      (select endpoint_id from webhook_deliveries where status = 'pending' order by endpoint_id limit 1)
      union all
      select (
        select d.endpoint_id from webhook_deliveries d
        where d.status = 'pending' and d.endpoint_id > endpoints_due.endpoint_id
        order by d.endpoint_id limit 1
      )
      from endpoints_due where endpoints_due.endpoint_id is not null
    ), due as (
      -- Each endpoint's first due attempts, no more than its owner may still lease; an owner's turns run
      -- across all of its endpoints.
      select d.id, d.next_attempt_at,
        coalesce(busy.leased, 0)
          + row_number() over (partition by e.owner_kind, e.owner_id order by d.next_attempt_at, d.id) as turn
      from endpoints_due
      join webhook_endpoints e on e.id = endpoints_due.endpoint_id
      left join unnest(${owners}::text[], ${counts}::int[]) as busy (owner, leased)
        on busy.owner = e.owner_kind || ':' || e.owner_id
      cross join lateral (
        select d.id, d.next_attempt_at from webhook_deliveries d
        where d.endpoint_id = endpoints_due.endpoint_id and d.status = 'pending' and d.claimed_until is null
          and d.next_attempt_at <= ${now}
        order by d.next_attempt_at, d.id
        limit greatest(0, ${shape.perOwner} - coalesce(busy.leased, 0))
      ) d
    ), picked as (
      -- The order is settled first (an array: the lock never drives the plan), then the rows are locked
      -- by primary key, and the conditions checked on what the lock returns (the row as it is now): one
      -- another dispatcher claimed meanwhile is passed over. (Checked on webhook_deliveries itself, they
      -- let the planner read every pending row through webhook_deliveries_endpoint_due: O(backlog).)
      select d.id, d.status, d.claimed_until from webhook_deliveries d
      where d.id = any(array(
          select id from due where turn <= ${shape.perOwner} order by turn, next_attempt_at, id limit ${shape.limit}
        ))
      for update of d skip locked
    ), orphaned as (
      -- An attempt whose event is gone (retention keeps every event a delivery waits for) ends here:
      -- leased, it would drop out of the join below and be replaced again at the end of every lease.
      update webhook_deliveries d set status = 'skipped', next_attempt_at = null, error = ${EVENT_GONE}
      from picked where d.id = picked.id and picked.status = 'pending' and picked.claimed_until is null
        and not exists (select 1 from outbox_events o where o.id = d.event_id)
    ), leased as (
      update webhook_deliveries d set claimed_until = ${new Date(now.getTime() + leaseMs)}
      from picked where d.id = picked.id and picked.status = 'pending' and picked.claimed_until is null
        and exists (select 1 from outbox_events o where o.id = d.event_id)
      returning d.*
    )
    select leased.*,
      json_build_object('id', e.id, 'url', e.url, 'status', e.status, 'secret', e.secret, 'previous_secret', e.previous_secret,
        'previous_secret_expires_at', e.previous_secret_expires_at, 'signature_scheme', e.signature_scheme,
        'owner_kind', e.owner_kind, 'owner_id', e.owner_id, 'deleted_at', e.deleted_at) as endpoint,
      json_build_object('id', o.id, 'type', o.type, 'created_at', o.created_at, 'data', o.data, 'restaurant_id', o.restaurant_id,
        'trace_context', o.trace_context) as event,
      -- The rules of findLapsedRestaurantIds and findGrantedPairs, read here to save two round trips a claim.
      json_build_object(
        'lapsed', coalesce(r.subscription_status <> 'active' or not r.partner_api_addon, false),
        'granted', e.owner_kind <> 'integrator' or exists (
          select 1 from grants g
          where g.restaurant_id = o.restaurant_id and g.integrator_org_id = e.owner_id
            and g.status = 'active' and g.scopes @> array[${shape.scope}]::text[])
      ) as reach
    from leased
    join webhook_endpoints e on e.id = leased.endpoint_id
    join outbox_events o on o.id = leased.event_id
    left join restaurants r on r.id = o.restaurant_id
    order by leased.next_attempt_at, o.seq
  `.execute(db);
  // json_build_object carries timestamps as text: give them back their type.
  return rows.map((row) => ({
    ...row,
    endpoint: {
      ...row.endpoint,
      previous_secret_expires_at: row.endpoint.previous_secret_expires_at ? new Date(row.endpoint.previous_secret_expires_at) : null,
      deleted_at: row.endpoint.deleted_at ? new Date(row.endpoint.deleted_at) : null,
    },
    event: { ...row.event, created_at: new Date(row.event.created_at) },
  }));
}

/**
 * Ends a leased attempt that did not succeed. False when it had already been replaced (its lease ran
 * out while its answer was awaited, see `replaceAbandonedAttempts`): the replacement carries the retries.
 */
export async function recordDeliveryOutcome(
  tx: Executor,
  id: string,
  outcome: { status: DeliveryStatus; responseStatus: number | null; durationMs: number | null; error: string | null },
): Promise<boolean> {
  const result = await tx
    .updateTable('webhook_deliveries')
    .set({
      status: outcome.status,
      response_status: outcome.responseStatus,
      duration_ms: outcome.durationMs,
      error: outcome.error,
      next_attempt_at: null,
      claimed_until: null,
    })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * The (restaurant, integrator) pairs that pending or held deliveries wait on: a restaurant's events to
 * an integrator's endpoints, which go out only while its grant lasts (its own `grant.*` events excepted).
 */
export async function findAwaitedIntegratorPairs(db: Executor): Promise<GrantPair[]> {
  const { rows } = await sql<{ restaurant_id: string; integrator_org_id: string }>`
    select distinct o.restaurant_id, e.owner_id as integrator_org_id
    from webhook_deliveries d
    join webhook_endpoints e on e.id = d.endpoint_id
    join outbox_events o on o.id = d.event_id
    where d.status in ('pending', 'held') and d.claimed_until is null
      and e.owner_kind = 'integrator' and d.event_type not like 'grant.%'
  `.execute(db);
  return rows.map((row) => ({ restaurantId: row.restaurant_id, integratorOrgId: row.integrator_org_id }));
}

export const GRANT_ENDED = 'the integrator no longer has an active grant';
/** Why a claimed attempt was ended unsent: its event is not in the outbox (see claimDueDeliveries). */
export const EVENT_GONE = 'the event is no longer kept';

/** Pending and held deliveries of these pairs' events (grants that ended) are skipped, not sent. */
export async function skipDeliveriesOfEndedGrants(db: Executor, ended: readonly GrantPair[]): Promise<number> {
  if (ended.length === 0) return 0;
  const result = await sql`
    update webhook_deliveries d set status = 'skipped', next_attempt_at = null, error = ${GRANT_ENDED}
    from webhook_endpoints e, outbox_events o,
      unnest(${ended.map((pair) => pair.restaurantId)}::text[], ${ended.map((pair) => pair.integratorOrgId)}::text[])
        as ended (restaurant_id, integrator_org_id)
    where d.status in ('pending', 'held') and d.claimed_until is null
      and e.id = d.endpoint_id and o.id = d.event_id
      and e.owner_kind = 'integrator' and d.event_type not like 'grant.%'
      and o.restaurant_id = ended.restaurant_id and e.owner_id = ended.integrator_org_id
  `.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/** Claimed attempts that must not go out (held again, or skipped) give their lease back unsent. */
export async function setAsideClaimedDeliveries(
  db: Executor,
  ids: readonly string[],
  outcome: { status: 'held' | 'skipped'; error: string | null },
): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('webhook_deliveries')
    .set({ status: outcome.status, error: outcome.error, next_attempt_at: null, claimed_until: null })
    .where('id', 'in', [...ids])
    .execute();
}

/** A leased attempt as its dispatcher holds it: the lease it was given. */
export interface HeldLease {
  id: string;
  claimedUntil: Date;
}

/**
 * Clears the leases this dispatcher holds, so that any dispatcher may lease the attempts afresh. Only
 * leases still as held are cleared: a row another dispatcher leased meanwhile (after the housekeeping
 * replaced it, or after a give-back whose answer was lost and is written again) keeps its lease.
 */
export async function releaseClaimedDeliveries(db: Executor, held: readonly HeldLease[]): Promise<void> {
  if (held.length === 0) return;
  await sql`
    update webhook_deliveries d set claimed_until = null
    from unnest(${held.map((lease) => lease.id)}::text[], ${held.map((lease) => lease.claimedUntil.toISOString())}::timestamptz[])
      as h(id, claimed_until)
    where d.id = h.id and d.claimed_until = h.claimed_until and d.status = 'pending'
  `.execute(db);
}

/**
 * The restaurants these events are about, each event locked until the transaction ends: retention
 * deletes an event only once no delivery refers to it, so one about to get a new delivery (a resend, a
 * recovery) must be held in place until that delivery is committed. An event already deleted is missing.
 */
export async function lockEventRestaurants(tx: Executor, eventIds: readonly string[]): Promise<Map<string, string>> {
  if (eventIds.length === 0) return new Map();
  const rows = await tx
    .selectFrom('outbox_events')
    .select(['id', 'restaurant_id'])
    .where('id', '=', sql<string>`any(${eventIds}::text[])`)
    .forKeyShare()
    .execute();
  return new Map(rows.map((row) => [row.id, row.restaurant_id]));
}

/** The restaurants whose events have held deliveries. */
export async function findHeldRestaurantIds(db: Executor): Promise<string[]> {
  const rows = await db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('outbox_events as o', 'o.id', 'd.event_id')
    .select('o.restaurant_id')
    .distinct()
    .where('d.status', '=', 'held')
    .execute();
  return rows.map((row) => row.restaurant_id);
}

/** Held deliveries of these restaurants (active again) become due. */
export async function releaseHeldDeliveries(db: Executor, restaurantIds: readonly string[], now: Date): Promise<number> {
  if (restaurantIds.length === 0) return 0;
  const result = await sql`
    update webhook_deliveries d set status = 'pending', next_attempt_at = ${now}
    from outbox_events o
    where d.status = 'held' and o.id = d.event_id and o.restaurant_id = any(${restaurantIds}::text[])
  `.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/** Held longer than the hold window: given up, visible as expired in the delivery log. */
export async function expireHeldDeliveries(db: Executor, olderThan: Date): Promise<number> {
  const result = await db
    .updateTable('webhook_deliveries')
    .set({ status: 'expired' })
    .where('status', '=', 'held')
    .where('created_at', '<', olderThan)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export interface DeliveryFilter {
  endpointId?: string;
  eventId?: string;
  eventType?: string;
  status?: DeliveryStatus;
}

/** Deliveries of an owner's endpoints, newest first, keyset-paginated on (created_at, id). */
export async function listOwnedDeliveries(
  db: Executor,
  owner: Owner | null,
  filter: DeliveryFilter,
  page: { before: { createdAt: Date; id: string } | null; limit: number },
): Promise<WebhookDeliveryRow[]> {
  let query = db.selectFrom('webhook_deliveries as d').innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id').selectAll('d');
  if (owner) query = query.where('e.owner_kind', '=', owner.kind).where('e.owner_id', '=', owner.id);
  if (filter.endpointId) query = query.where('d.endpoint_id', '=', filter.endpointId);
  if (filter.eventId) query = query.where('d.event_id', '=', filter.eventId);
  if (filter.eventType) query = query.where('d.event_type', '=', filter.eventType);
  if (filter.status) query = query.where('d.status', '=', filter.status);
  if (page.before) {
    const { createdAt, id } = page.before;
    query = query.where(sql<boolean>`(d.created_at, d.id) < (${createdAt}, ${id})`);
  }
  return query.orderBy('d.created_at', 'desc').orderBy('d.id', 'desc').limit(page.limit).execute();
}

export async function findOwnedDelivery(db: Executor, owner: Owner | null, id: string): Promise<WebhookDeliveryRow | undefined> {
  let query = db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
    .selectAll('d')
    .where('d.id', '=', id)
    .where('e.deleted_at', 'is', null);
  if (owner) query = query.where('e.owner_kind', '=', owner.kind).where('e.owner_id', '=', owner.id);
  return query.executeTakeFirst();
}

/** Every attempt to send one event to one endpoint (retries and resends are rows of their own), oldest first. */
const eventAttempts = (db: Executor, eventId: string, endpointId: string) =>
  db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('event_id', '=', eventId)
    .where('endpoint_id', '=', endpointId)
    .orderBy('created_at')
    .orderBy('id');

/**
 * A delivery with every attempt at sending its event to its endpoint, in one query: a row per attempt,
 * oldest first, the delivery's own among them. The event, while still kept (a test event never is), is
 * joined on the delivery's own row only (`kept_event_*`, null on the others): its data is read once.
 * No rows: no such delivery, or (an owner given) its endpoint is another owner's.
 */
export async function listOwnedDeliveryAttempts(db: Executor, owner: Owner | null, id: string) {
  let query = db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
    .innerJoin('webhook_deliveries as a', (join) =>
      join.onRef('a.event_id', '=', 'd.event_id').onRef('a.endpoint_id', '=', 'd.endpoint_id'),
    )
    .leftJoin('outbox_events as o', (join) => join.onRef('o.id', '=', 'd.event_id').onRef('a.id', '=', 'd.id'))
    .selectAll('a')
    .select(['o.id as kept_event_id', 'o.type as kept_event_type', 'o.created_at as kept_event_created_at', 'o.data as kept_event_data'])
    .where('d.id', '=', id)
    .where('e.deleted_at', 'is', null);
  if (owner) query = query.where('e.owner_kind', '=', owner.kind).where('e.owner_id', '=', owner.id);
  return query.orderBy('a.created_at').orderBy('a.id').execute();
}

export async function insertNotification(
  db: Executor,
  row: { owner_kind: string; owner_id: string; kind: string; message: string },
): Promise<void> {
  await db.insertInto('notifications').values(row).execute();
}

/** Whether the endpoint acknowledged any delivery since `since` (an endpoint that did is not dead). */
export async function endpointSucceededSince(db: Executor, endpointId: string, since: Date): Promise<boolean> {
  const row = await db
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('endpoint_id', '=', endpointId)
    .where('status', '=', 'succeeded')
    .where('created_at', '>=', since)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export async function findFirstAttempt(db: Executor, eventId: string, endpointId: string): Promise<WebhookDeliveryRow | undefined> {
  return eventAttempts(db, eventId, endpointId).limit(1).executeTakeFirst();
}

/** Adds menu changes, and the dishes they touched, to the restaurant's burst (a menu.updated is owed for them). */
export async function recordMenuChanges(
  tx: Executor,
  change: { restaurantId: string; changedItemIds: string[]; deletedItemIds: string[]; at: Date },
): Promise<void> {
  await sql`
    insert into menu_update_bursts (restaurant_id, first_change_at, last_change_at, changed_item_ids, deleted_item_ids)
    values (${change.restaurantId}, ${change.at}, ${change.at}, ${change.changedItemIds}::text[], ${change.deletedItemIds}::text[])
    on conflict (restaurant_id) do update set
      last_change_at = greatest(menu_update_bursts.last_change_at, excluded.last_change_at),
      changed_item_ids = array(select distinct unnest(menu_update_bursts.changed_item_ids || excluded.changed_item_ids)),
      deleted_item_ids = array(select distinct unnest(menu_update_bursts.deleted_item_ids || excluded.deleted_item_ids))
  `.execute(tx);
}

/** Bursts that are over (quiet long enough) or have waited long enough, locked for this dispatcher. */
export async function takeFinishedMenuBursts(tx: Executor, quietSince: Date, startedBefore: Date) {
  const bursts = await tx
    .selectFrom('menu_update_bursts')
    .selectAll()
    .where((eb) => eb.or([eb('last_change_at', '<=', quietSince), eb('first_change_at', '<=', startedBefore)]))
    .forUpdate()
    .skipLocked()
    .execute();
  if (bursts.length) {
    await tx
      .deleteFrom('menu_update_bursts')
      .where(
        'restaurant_id',
        'in',
        bursts.map((burst) => burst.restaurant_id),
      )
      .execute();
  }
  return bursts;
}

/** Many acknowledged attempts in one statement (a dispatcher records a batch's successes together). */
export async function recordSucceededDeliveries(db: Executor, outcomes: readonly Acknowledgement[]): Promise<void> {
  if (outcomes.length) await succeededUpdate(outcomes).execute(db);
}

/**
 * The event's attempt to the endpoint that is still under way (pending, in flight or not, or held),
 * locked until the transaction ends. A chain has one at a time: each retry is made as the attempt
 * before it ends.
 */
export async function lockAttemptUnderway(tx: Executor, eventId: string, endpointId: string): Promise<WebhookDeliveryRow | undefined> {
  return tx
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('event_id', '=', eventId)
    .where('endpoint_id', '=', endpointId)
    .where('status', 'in', ['pending', 'held'])
    .orderBy('created_at', 'desc')
    .limit(1)
    .forUpdate()
    .executeTakeFirst();
}

/** A pending attempt not yet leased is made due now; one in flight or held stays as it is. */
export async function bringAttemptForward(tx: Executor, attempt: WebhookDeliveryRow, now: Date): Promise<WebhookDeliveryRow> {
  if (attempt.status !== 'pending' || attempt.claimed_until !== null || attempt.next_attempt_at! <= now) return attempt;
  return tx
    .updateTable('webhook_deliveries')
    .set({ next_attempt_at: now })
    .where('id', '=', attempt.id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * Holds the endpoint against resends and recoveries (their `lockWebhookEndpoint`) until the transaction
 * ends, without holding back other attempts to it: a resend then sees the retry this transaction
 * inserts, instead of missing it and starting a second chain.
 */
export async function holdEndpointForRetry(tx: Executor, id: string): Promise<void> {
  await tx.selectFrom('webhook_endpoints').select('id').where('id', '=', id).forKeyShare().execute();
}

/** The endpoint, locked until the transaction ends (recoveries of one endpoint run one by one). */
export async function lockWebhookEndpoint(tx: Executor, id: string): Promise<WebhookEndpointRow | undefined> {
  return tx.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).where('deleted_at', 'is', null).forUpdate().executeTakeFirst();
}

/** Deliveries created in `[since, until)`. */
export interface DeliveryRange {
  since: Date;
  until: Date;
}

export interface RecoverableEvent {
  event_id: string;
  event_type: string;
  restaurant_id: string;
  /** The event's outbox position (bigint, as text): events are taken oldest first. */
  seq: string;
}

/**
 * Events with an attempt to the endpoint made in the range that ended failed, expired or skipped,
 * each once, oldest first after `afterSeq`. `restaurantIds`, when given, keeps a restaurant's events to
 * those restaurants (an integrator's reach); `grant.*` events always count.
 */
export async function findEventsWithUndeliveredAttempts(
  db: Executor,
  endpointId: string,
  range: DeliveryRange,
  page: { afterSeq: string; limit: number; restaurantIds: readonly string[] | null },
): Promise<RecoverableEvent[]> {
  const reach = page.restaurantIds;
  const { rows } = await sql<RecoverableEvent>`
    select d.event_id, min(d.event_type) as event_type, o.restaurant_id, o.seq::text as seq
    from webhook_deliveries d
    join outbox_events o on o.id = d.event_id
    where d.endpoint_id = ${endpointId} and d.created_at >= ${range.since} and d.created_at < ${range.until}
      and d.status in ('failed', 'expired', 'skipped')
      and o.seq > ${page.afterSeq}::bigint
      and (${reach === null} or d.event_type like 'grant.%' or o.restaurant_id = any(${reach ?? []}::text[]))
    group by d.event_id, o.restaurant_id, o.seq
    order by o.seq
    limit ${page.limit}
  `.execute(db);
  return rows;
}

/**
 * Which of these events the endpoint acknowledged (at any time) or still has on its way (pending or
 * held). The ids are one array, looked up by the event index: a correlated subquery per event let a
 * fresh table's statistics pick a plan that read the endpoint's whole index once per event.
 */
export async function findEventsDeliveredOrUnderway(db: Executor, endpointId: string, eventIds: readonly string[]): Promise<Set<string>> {
  if (eventIds.length === 0) return new Set();
  const { rows } = await sql<{ event_id: string }>`
    select distinct event_id from webhook_deliveries
    where event_id = any(${eventIds}::text[]) and endpoint_id = ${endpointId}
      and status in ('succeeded', 'pending', 'held')
  `.execute(db);
  return new Set(rows.map((row) => row.event_id));
}

/** The restaurants whose events (other than `grant.*`) an endpoint has undelivered in the range. */
export async function findRecoverableRestaurantIds(db: Executor, endpointId: string, range: DeliveryRange): Promise<string[]> {
  const rows = await db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('outbox_events as o', 'o.id', 'd.event_id')
    .select('o.restaurant_id')
    .distinct()
    .where('d.endpoint_id', '=', endpointId)
    .where('d.created_at', '>=', range.since)
    .where('d.created_at', '<', range.until)
    .where('d.status', 'in', ['failed', 'expired', 'skipped'])
    .where('d.event_type', 'not like', 'grant.%')
    .execute();
  return rows.map((row) => row.restaurant_id);
}
