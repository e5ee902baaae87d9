import type { TDeliveryEventType, TWebhookSignatureScheme } from '@partner/contracts';
import { type DeliveryStatus, type Executor, insertOutboxEvent, type Owner } from '@partner/db';
import { newId, silentLogger } from '@partner/http';
import { insertRestaurant, keyPrincipalFor } from '@partner/testing';
import { generateWebhookSecret, SealingKeys } from '@partner/signing';
import { Dispatcher, type DispatcherOptions } from '../dispatcher/dispatcher.js';
import { WebhookSender } from '../dispatcher/sender.js';
import { openEndpointSecret, sealEndpointSecret } from '../endpoints/endpoint-secrets.js';
import { insertDeliveries, insertWebhookEndpoint, updateWebhookEndpoint } from '../webhooks.repository.js';

/** A public address: endpoints are registered without a DNS lookup (IP literals are not resolved). */
export const PUBLIC_TARGET = 'https://93.184.215.14/hooks';

/** The key ring of the harness and of every endpoint the fixtures arrange (one key, id `test`). */
export const TEST_SEALING_SPEC = SealingKeys.generateSpec('test');
export const TEST_SEALING_KEYS = SealingKeys.parse(TEST_SEALING_SPEC);

/** A restaurant and the key principal the gateway would establish for a live secret key of it. */
export async function arrangeOwner(db: Executor) {
  const id = newId('rst');
  await insertRestaurant(db, {
    id,
    name: 'Webhook Bistro',
    slug: id.toLowerCase().replace('_', '-'),
    currency: 'EUR',
  });
  const owner: Owner = { kind: 'restaurant', id };
  return { owner, principal: keyPrincipalFor(owner) };
}

/** An `item.updated` of the restaurant in the outbox, as console writes one; its event id. */
export async function emitItemUpdated(db: Executor, restaurant: Owner): Promise<string> {
  const id = newId('evt');
  await insertOutboxEvent(db, {
    id,
    type: 'item.updated',
    restaurantId: restaurant.id,
    data: { itemId: newId('itm'), restaurantId: restaurant.id, itemSlug: 'dish', itemName: 'Dish' },
  });
  return id;
}

/**
 * An integrator holding an active grant on the restaurant, as console would write them (console is not
 * running here), with the key principal of the integrator and a way to revoke the grant.
 */
export async function arrangeGrantedIntegrator(db: Executor, restaurantId: string, scopes: string[] = ['menu:read']) {
  const id = newId('org');
  await db
    .insertInto('integrator_orgs')
    .values({ id, name: 'Webhook Integrator', slug: id.toLowerCase().replace('_', '-') })
    .execute();
  const grantId = newId('grt');
  await db
    .insertInto('grants')
    .values({ id: grantId, restaurant_id: restaurantId, integrator_org_id: id, scopes, status: 'active' })
    .execute();
  const owner: Owner = { kind: 'integrator', id };
  return {
    owner,
    principal: keyPrincipalFor(owner),
    revoke: async () => {
      await db.updateTable('grants').set({ status: 'revoked', revoked_at: new Date() }).where('id', '=', grantId).execute();
    },
  };
}

export async function arrangeEndpoint(
  db: Executor,
  owner: Owner,
  options: {
    disabledReason?: string;
    url?: string;
    enabledEvents?: string[];
    signatureScheme?: TWebhookSignatureScheme;
    /** The signing secret in clear (a new one, as the API makes them, unless given). */
    secret?: string;
  } = {},
) {
  const id = newId('we');
  const row = await insertWebhookEndpoint(db, {
    id,
    owner,
    url: options.url ?? PUBLIC_TARGET,
    enabledEvents: options.enabledEvents ?? ['*'],
    description: null,
    sealedSecret: sealEndpointSecret(TEST_SEALING_KEYS, id, options.secret ?? generateWebhookSecret()),
    signatureScheme: options.signatureScheme,
  });
  if (options.disabledReason === undefined) return row;
  return (await updateWebhookEndpoint(db, row.id, { status: 'disabled', disabled_reason: options.disabledReason }))!;
}

/** One attempt in the delivery log (the log reads deliveries alone: no outbox row is needed). */
export async function arrangeDelivery(
  db: Executor,
  endpointId: string,
  fields: { createdAt: Date; eventType?: TDeliveryEventType; status?: DeliveryStatus; eventId?: string },
) {
  const status = fields.status ?? 'succeeded';
  const row = {
    id: newId('whd'),
    event_id: fields.eventId ?? newId('evt'),
    event_type: fields.eventType ?? 'item.updated',
    endpoint_id: endpointId,
    attempt: 1,
    status,
    next_attempt_at: status === 'pending' ? fields.createdAt : null,
    created_at: fields.createdAt,
  };
  await insertDeliveries(db, [row]);
  return row;
}

/** A delivery of a new menu.updated of the restaurant, its event in the outbox (resend reads its restaurant there). */
export async function arrangeEventDelivery(db: Executor, endpointId: string, restaurant: Owner, fields: { status?: DeliveryStatus } = {}) {
  const eventId = newId('evt');
  await insertOutboxEvent(db, {
    id: eventId,
    type: 'menu.updated',
    restaurantId: restaurant.id,
    data: { restaurantId: restaurant.id, etag: '"v1"', changedItemIds: [], deletedItemIds: [], truncated: false },
  });
  return arrangeDelivery(db, endpointId, { createdAt: new Date(), eventId, eventType: 'menu.updated', ...fields });
}

/**
 * An owner's delivery log: two endpoints and five attempts a minute apart, oldest first, of several
 * event types and statuses (the newest still pending); and a stranger with a log of their own.
 */
export async function arrangeDeliveryLog(db: Executor) {
  const { owner, principal } = await arrangeOwner(db);
  const endpoints = [await arrangeEndpoint(db, owner), await arrangeEndpoint(db, owner)] as const;
  const [a, b] = endpoints;
  const start = Date.now() - 3600_000;
  const at = (minute: number) => new Date(start + minute * 60_000);
  const deliveries = [
    await arrangeDelivery(db, a.id, { createdAt: at(0), eventType: 'item.created', status: 'succeeded' }),
    await arrangeDelivery(db, a.id, { createdAt: at(1), eventType: 'item.updated', status: 'failed' }),
    await arrangeDelivery(db, b.id, { createdAt: at(2), eventType: 'item.updated', status: 'succeeded' }),
    await arrangeDelivery(db, b.id, { createdAt: at(3), eventType: 'menu.updated', status: 'skipped' }),
    await arrangeDelivery(db, a.id, { createdAt: at(4), eventType: 'item.updated', status: 'pending' }),
  ] as const;
  const stranger = await arrangeOwner(db);
  const strangerEndpoint = await arrangeEndpoint(db, stranger.owner);
  const strangerDelivery = await arrangeDelivery(db, strangerEndpoint.id, { createdAt: at(5) });
  return { owner, principal, endpoints, deliveries, stranger: { ...stranger, endpoint: strangerEndpoint, delivery: strangerDelivery } };
}

/** The order of every listing: created_at, then id, both descending (ids compare by code unit, as the C collation does). */
export const newestFirst = (a: { createdAt: string; id: string }, b: { createdAt: string; id: string }): number =>
  a.createdAt === b.createdAt ? (a.id < b.id ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1;

export async function findDeliveries(db: Executor, eventId: string) {
  // A retry is often made at the same moment as the attempt before it (a test's clock stands still).
  return db.selectFrom('webhook_deliveries').selectAll().where('event_id', '=', eventId).orderBy('created_at').orderBy('attempt').execute();
}

export async function findEndpointRow(db: Executor, id: string) {
  return db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** An endpoint's signing secrets as stored (sealed, never in clear), and opened. */
export async function storedSecrets(db: Executor, id: string) {
  const row = await findEndpointRow(db, id);
  const open = (sealed: string | null) => sealed && openEndpointSecret(TEST_SEALING_KEYS, id, sealed);
  return {
    sealed: [row.secret, row.previous_secret].filter((value) => value !== null),
    secret: open(row.secret),
    previousSecret: open(row.previous_secret),
    previousExpiresAt: row.previous_secret_expires_at,
  };
}

/** A dispatcher of a test's own on the real clock, with the fixtures' key ring; the test drives its ticks. */
export function testDispatcher(
  db: Executor,
  sender: WebhookSender,
  retryBaseMs: number,
  options: Pick<DispatcherOptions, 'housekeepingMs'> = {},
): Dispatcher {
  return new Dispatcher({ db, logger: silentLogger(), sender, sealing: TEST_SEALING_KEYS, now: () => new Date(), retryBaseMs, ...options });
}

/** A dispatcher of a test's own on a clock the test moves, with a sender of its own (`close` it). */
export function dispatcherWithClock(db: Executor, options: Partial<Pick<DispatcherOptions, 'retryBaseMs' | 'menuQuietMs'>> = {}) {
  const clock = { now: Date.now() };
  const now = () => new Date(clock.now);
  const sender = new WebhookSender({ allowPrivate: true }, now);
  const dispatcher = new Dispatcher({
    db,
    logger: silentLogger(),
    sender,
    sealing: TEST_SEALING_KEYS,
    now,
    retryBaseMs: 60_000,
    ...options,
  });
  return { clock, dispatcher, close: () => sender.close() };
}
