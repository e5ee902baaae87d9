import { signatureHeader } from '@partner/sdk';
import {
  claimDueDeliveries,
  type ClaimedAttempt,
  endpointSucceededSince,
  expireHeldDeliveries,
  type FanOutTarget,
  findFanOutTargets,
  findFirstAttempt,
  insertDeliveries,
  insertNotification,
  lockEventsToFanOut,
  markEventsFannedOut,
  recordDeliveryOutcome,
  recordMenuChanges,
  recordSucceededDeliveries,
  releaseHeldDeliveries,
  replaceAbandonedAttempts,
  skipDeliveriesWithoutGrant,
  takeFinishedMenuBursts,
  updateWebhookEndpoint,
} from '../webhooks.repository.js';
import { type Db, type Executor, findPublishedItemIds, insertOutboxEvent, menuEtag, type OutboxEventRow } from '@partner/db';
import { type Logger, newId } from '@partner/http';
import type { OwnerMailer } from './owner-mailer.js';
import { retryDelayMs, withRetryAfter } from './retry-schedule.js';
import type { WebhookSender } from './sender.js';

export interface DispatcherOptions {
  db: Db;
  logger: Logger;
  sender: WebhookSender;
  now: () => Date;
  retryBaseMs: number;
  /** How long an attempt is leased to this dispatcher; longer than the 10-second timeout. */
  leaseMs?: number;
  batchSize?: number;
  concurrency?: number;
  holdMs?: number;
  /** menu.updated: sent once a restaurant's changes have been quiet this long... */
  menuQuietMs?: number;
  /** ...or this long after the burst's first change, whichever comes first. */
  menuMaxDelayMs?: number;
  /** E-mails owners about disabled endpoints when SMTP is configured. */
  mailer?: OwnerMailer;
}

const ITEM_EVENTS = new Set(['item.created', 'item.updated', 'item.deleted', 'model.ready', 'model.failed']);
/** How many item ids a menu.updated lists at most; beyond it `truncated` says to fetch the menu. */
const MENU_IDS_CAP = 100;

/** The dish an item or model event is about; null for other events. */
function itemIdOf(event: OutboxEventRow): string | null {
  const data = event.data as { itemId?: unknown } | null;
  return ITEM_EVENTS.has(event.type) && typeof data?.itemId === 'string' ? data.itemId : null;
}

const HOLD_MS = 72 * 3600 * 1000;

/**
 * Outbox → deliveries → attempts. Each step locks only what it takes (SKIP LOCKED), so several
 * dispatchers share the work without sending one attempt twice; an attempt leased by a dispatcher that
 * died is replaced by a new one when its lease runs out, so nothing is lost (at-least-once, spec 6.2).
 */
export class Dispatcher {
  private running = false;
  private stopped: Promise<void> | null = null;

  constructor(private readonly options: DispatcherOptions) {}

  /** One round of every step; returns how much it did, so a loop knows whether to go again at once. */
  async tick(): Promise<{ fannedOut: number; attempted: number }> {
    const now = this.options.now();
    const fannedOut = (await this.fanOut(now)) + (await this.announceMenuUpdates(now));
    await skipDeliveriesWithoutGrant(this.options.db);
    await releaseHeldDeliveries(this.options.db, now);
    await expireHeldDeliveries(this.options.db, new Date(now.getTime() - (this.options.holdMs ?? HOLD_MS)));
    await replaceAbandonedAttempts(this.options.db, now);
    const attempted = await this.deliverDue(now);
    return { fannedOut, attempted };
  }

  /** Runs ticks until stopped: again at once while there is work, otherwise after `idleMs`. */
  start(idleMs = 100): void {
    if (this.running) return;
    this.running = true;
    this.stopped = (async () => {
      while (this.running) {
        try {
          const { fannedOut, attempted } = await this.tick();
          if (fannedOut + attempted === 0) await new Promise((resolve) => setTimeout(resolve, idleMs));
        } catch (err) {
          this.options.logger.error({ err }, 'dispatcher tick failed');
          await new Promise((resolve) => setTimeout(resolve, idleMs * 10));
        }
      }
    })();
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.stopped;
  }

  private async fanOut(now: Date): Promise<number> {
    return this.options.db.transaction().execute(async (tx) => {
      const events = await lockEventsToFanOut(tx, this.options.batchSize ?? 500);
      // Events of one restaurant, type and addressee go to the same endpoints: look them up once.
      const targetsOf = new Map<string, Promise<FanOutTarget[]>>();
      const menuChanges = new Map<string, { changed: Set<string>; deleted: Set<string> }>();
      const deliveries: Parameters<typeof insertDeliveries>[1] = [];
      // A dish that is not published (a draft, an archived one) is the restaurant's business alone.
      const published = await findPublishedItemIds(
        tx,
        events.map(itemIdOf).filter((id): id is string => id !== null),
      );
      for (const event of events) {
        const key = `${event.restaurant_id}|${event.type}|${event.integrator_org_id ?? ''}`;
        if (!targetsOf.has(key)) targetsOf.set(key, findFanOutTargets(tx, event));
        const itemId = itemIdOf(event);
        for (const target of await targetsOf.get(key)!) {
          if (target.owner_kind === 'integrator' && itemId !== null && !published.has(itemId)) continue;
          // Disabled endpoints keep a skipped row (resendable after re-enabling); lapsed restaurants hold.
          const status = target.endpoint_status === 'disabled' ? 'skipped' : target.restaurant_lapsed ? 'held' : 'pending';
          deliveries.push({
            id: newId('whd'),
            event_id: event.id,
            event_type: event.type,
            endpoint_id: target.endpoint_id,
            attempt: 1,
            status,
            next_attempt_at: status === 'pending' ? now : null,
            created_at: now,
          });
        }
        if (ITEM_EVENTS.has(event.type)) {
          const { itemId } = event.data as { itemId: string };
          const change = menuChanges.get(event.restaurant_id) ?? { changed: new Set<string>(), deleted: new Set<string>() };
          (event.type === 'item.deleted' ? change.deleted : change.changed).add(itemId);
          menuChanges.set(event.restaurant_id, change);
        }
      }
      await insertDeliveries(tx, deliveries);
      for (const [restaurantId, change] of menuChanges) {
        await recordMenuChanges(tx, { restaurantId, changedItemIds: [...change.changed], deletedItemIds: [...change.deleted], at: now });
      }
      await markEventsFannedOut(
        tx,
        events.map((event) => event.seq),
        now,
      );
      return events.length;
    });
  }

  /** One menu.updated per burst of item changes per restaurant, written to the outbox like any event. */
  private async announceMenuUpdates(now: Date): Promise<number> {
    const quietSince = new Date(now.getTime() - (this.options.menuQuietMs ?? 5_000));
    const startedBefore = new Date(now.getTime() - (this.options.menuMaxDelayMs ?? 60_000));
    return this.options.db.transaction().execute(async (tx) => {
      const bursts = await takeFinishedMenuBursts(tx, quietSince, startedBefore);
      for (const burst of bursts) {
        const deleted = new Set(burst.deleted_item_ids);
        const changed = burst.changed_item_ids.filter((id) => !deleted.has(id));
        const { etag } = await menuEtag(tx, burst.restaurant_id);
        await insertOutboxEvent(tx, {
          id: newId('evt'),
          type: 'menu.updated',
          restaurantId: burst.restaurant_id,
          data: {
            restaurantId: burst.restaurant_id,
            etag,
            changedItemIds: changed.slice(0, MENU_IDS_CAP),
            deletedItemIds: [...deleted].slice(0, MENU_IDS_CAP),
            truncated: changed.length > MENU_IDS_CAP || deleted.size > MENU_IDS_CAP,
          },
        });
      }
      return bursts.length;
    });
  }

  private async deliverDue(now: Date): Promise<number> {
    const claimed = await claimDueDeliveries(this.options.db, now, this.options.leaseMs ?? 60_000, this.options.batchSize ?? 500);
    // Attempts start in due order, up to `concurrency` at once. Receivers get no ordering promise
    // (spec 6.2: at-least-once, deduplicate on id); every event carries its createdAt.
    const acknowledged: { id: string; responseStatus: number; durationMs: number }[] = [];
    let next = 0;
    const worker = async () => {
      while (next < claimed.length) await this.attempt(claimed[next++]!, acknowledged);
    };
    await Promise.all(Array.from({ length: Math.min(this.options.concurrency ?? 128, claimed.length) }, worker));
    // Successes are recorded together; if this process dies first, the lease runs out and they are
    // sent again (at-least-once), never lost.
    await recordSucceededDeliveries(this.options.db, acknowledged);
    return claimed.length;
  }

  private async attempt(
    delivery: ClaimedAttempt,
    acknowledged: { id: string; responseStatus: number; durationMs: number }[],
  ): Promise<void> {
    const { db, sender } = this.options;
    const { endpoint, event } = delivery;
    if (endpoint.deleted_at || endpoint.status !== 'active') {
      const reason = endpoint.deleted_at ? 'endpoint deleted' : 'endpoint disabled';
      await recordDeliveryOutcome(db, delivery.id, { status: 'skipped', responseStatus: null, durationMs: null, error: reason });
      return;
    }
    const now = this.options.now();
    const body = JSON.stringify({ id: event.id, type: event.type, createdAt: event.created_at.toISOString(), data: event.data });
    const secrets = [endpoint.secret];
    if (endpoint.previous_secret && endpoint.previous_secret_expires_at && endpoint.previous_secret_expires_at > now) {
      secrets.push(endpoint.previous_secret);
    }
    const outcome = await sender.send(endpoint.url, body, {
      'x-service-event': event.type,
      'x-service-delivery': delivery.id,
      'x-service-signature': signatureHeader(secrets, Math.floor(now.getTime() / 1000), body),
    });
    const recorded = { responseStatus: outcome.status, durationMs: outcome.durationMs, error: outcome.error };
    if (outcome.ok) {
      acknowledged.push({ id: delivery.id, responseStatus: outcome.status!, durationMs: outcome.durationMs });
      return;
    }
    const disabledFor = await db.transaction().execute(async (tx): Promise<string | null> => {
      await recordDeliveryOutcome(tx, delivery.id, { status: 'failed', ...recorded });
      if (outcome.status === 410) return this.disable(tx, endpoint, 'The endpoint answered 410 Gone.');
      const delay = retryDelayMs(delivery.attempt, this.options.retryBaseMs);
      if (delay !== null) {
        const at = new Date(this.options.now().getTime() + withRetryAfter(delay, outcome.retryAfterMs));
        await insertDeliveries(tx, [
          {
            id: newId('whd'),
            event_id: delivery.event_id,
            event_type: delivery.event_type,
            endpoint_id: delivery.endpoint_id,
            attempt: delivery.attempt + 1,
            status: 'pending',
            next_attempt_at: at,
            created_at: this.options.now(),
          },
        ]);
        return null;
      }
      const first = await findFirstAttempt(tx, delivery.event_id, delivery.endpoint_id);
      if (first && (await endpointSucceededSince(tx, endpoint.id, first.created_at))) return null;
      return this.disable(tx, endpoint, `Event ${event.id} failed all 8 delivery attempts (last: ${outcome.error ?? 'no answer'}).`);
    });
    // The e-mail goes once the change is committed, and never holds the transaction open.
    if (disabledFor && this.options.mailer) {
      await this.options.mailer.send(
        db,
        { kind: endpoint.owner_kind, id: endpoint.owner_id },
        'A webhook endpoint was disabled',
        disabledFor,
      );
    }
  }

  /** Disables the endpoint and records the owner's notification; returns the message told. */
  private async disable(tx: Executor, endpoint: ClaimedAttempt['endpoint'], reason: string): Promise<string> {
    await updateWebhookEndpoint(tx, endpoint.id, { status: 'disabled', disabled_reason: reason });
    const message = `Webhook endpoint ${endpoint.url} was disabled: ${reason} Re-enable it once it answers, then resend what it missed.`;
    await insertNotification(tx, {
      owner_kind: endpoint.owner_kind,
      owner_id: endpoint.owner_id,
      kind: 'webhook_endpoint_disabled',
      message,
    });
    this.options.logger.warn({ endpointId: endpoint.id, owner: endpoint.owner_id, reason }, 'webhook endpoint disabled; owner notified');
    return message;
  }
}
