import { setTimeout as sleep } from 'node:timers/promises';
import type { SealingKeys } from '@partner/signing';
import {
  claimDueDeliveries,
  type ClaimedAttempt,
  endpointSucceededSince,
  type FanOutTarget,
  findFanOutTargets,
  findFirstAttempt,
  GRANT_ENDED,
  type HeldLease,
  insertDeliveries,
  insertNotification,
  lockEventsToFanOut,
  markEventsFannedOut,
  type NewDelivery,
  recordDeliveryOutcome,
  recordMenuChanges,
  ownerKey,
  recordSucceededDeliveries,
  releaseClaimedDeliveries,
  type Acknowledgement,
  setAsideClaimedDeliveries,
  takeFinishedMenuBursts,
  disableActiveEndpoint,
  holdEndpointForRetry,
} from '../webhooks.repository.js';
import {
  type Db,
  type Executor,
  findPublishedItemIds,
  insertOutboxEvent,
  MENU_CHANGE_NOTE,
  menuEtag,
  type OutboxEventRow,
} from '@partner/db';
import { type Logger, newId } from '@partner/http';
import { traceLinkedTo } from '@partner/tracing';
import { EVENTS_SCOPE, Housekeeper } from '../housekeeping/housekeeper.js';
import type { RetentionPolicy } from '../housekeeping/retention.js';
import type { OwnerMailer } from './owner-mailer.js';
import { Signal } from './signal.js';
import { retryDelayMs, withRetryAfter } from './retry-schedule.js';
import { sendEvent } from './send-event.js';
import { SEND_TIMEOUT_MS, type WebhookSender } from './sender.js';
import { WriteBatch } from './write-batch.js';

/** How an attempt ended: answered 2xx, failed (to be retried or not), or not sent (endpoint gone or off). */
export type AttemptOutcome = 'succeeded' | 'failed' | 'skipped';

export interface DispatcherOptions {
  db: Db;
  logger: Logger;
  sender: WebhookSender;
  /** Opens the endpoints' sealed signing secrets. */
  sealing: SealingKeys;
  now: () => Date;
  retryBaseMs: number;
  /** How long an attempt is leased to this dispatcher; longer than the 10-second timeout. */
  leaseMs?: number;
  batchSize?: number;
  /** Attempts in flight at once in this dispatcher. */
  concurrency?: number;
  /**
   * Attempts claimed ahead of a free slot, up to this many, so a slot that frees is filled from memory
   * at once rather than after the next claim's round trip (the running loop only; `tick` claims none).
   */
  claimAhead?: number;
  /** Attempts in flight at once for one owner, so one owner's slow endpoints cannot take every slot. */
  ownerConcurrency?: number;
  /** A held delivery expires this long after it was made (72 hours). */
  holdMs?: number;
  /** How often the housekeeping runs (release, expiry, grant sweep, retention); 5 seconds by default. */
  housekeepingMs?: number;
  /** The delivery log's and the outbox's retention (30 days and 24 hours by default). */
  retention?: RetentionPolicy;
  /** Told of every attempt's outcome (the metrics). */
  onAttempt?: (outcome: AttemptOutcome) => void;
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
/** How long a loop waits after a failed round before trying again. */
const FAILURE_PAUSE_MS = 1_000;
/** The least time between the starts of two rounds of fan-out woken by outbox writes. */
const WOKEN_ROUND_GAP_MS = 20;
const DAY_MS = 24 * 3600 * 1000;
/**
 * A claimed attempt starts only with this much of its lease left: a whole attempt, and 2 s to record
 * its answer (at the send loop's next round, within its one-second poll). One started later could
 * still be running, or its success unrecorded, when its lease ran out, and the housekeeping would send
 * it again as a new attempt: a receiver would get it twice, and the log a false failure. (The shortest
 * lease the configuration allows, 15 s, leaves a claimed attempt 3 s to wait for its slot.)
 */
export const LEASE_LEFT_TO_START_MS = SEND_TIMEOUT_MS + 2_000;
export const DEFAULT_RETENTION: RetentionPolicy = { deliveriesMs: 30 * DAY_MS, outboxMs: DAY_MS };

/** What giving a claimed attempt back needs: the lease it holds. */
const heldLease = (delivery: ClaimedAttempt): HeldLease => ({ id: delivery.id, claimedUntil: delivery.claimed_until! });

/** An integrator hears of a restaurant only through its grant; its own `grant.*` events need none. */
const needsGrant = (delivery: ClaimedAttempt): boolean =>
  delivery.endpoint.owner_kind === 'integrator' && !delivery.event.type.startsWith('grant.');

/**
 * Outbox → deliveries → attempts. Each step locks only what it takes (SKIP LOCKED), so several
 * dispatchers share the work without sending one attempt twice; an attempt leased by a dispatcher that
 * died is replaced by a new one when its lease runs out, so nothing is lost (at-least-once, spec 6.2).
 * Attempts run in a pool: a slot that frees is filled at once, owners take turns, and none holds more
 * than `ownerConcurrency` slots, so one owner's slow endpoints never delay another's deliveries.
 */
export class Dispatcher {
  private running = false;
  private stopped: Promise<void> | null = null;
  /** Ends with the send loop: from then on no claim is under way, and what was claimed ahead waits in `ready`. */
  private claimsEnded: Promise<void> = Promise.resolve();
  private readonly attempts = new Set<Promise<void>>();
  /** Attempts in flight per owner (`ownerKey`). */
  private readonly inFlight = new Map<string, number>();
  /** Claimed attempts waiting for a slot, per owner (`ownerKey`) in claim order; owners take turns. */
  private readonly ready = new Map<string, ClaimedAttempt[]>();
  private readyCount = 0;
  /**
   * Claimed attempts to give back (`claimed_until` cleared) at the next claim, for any dispatcher to
   * lease afresh: those whose lease ran too low while they waited for a slot, and at stop what waits.
   */
  private readonly toGiveBack = new WriteBatch<HeldLease>();
  /**
   * Successes not yet recorded: written together, on their own or with a claim. If this process dies
   * first, the lease runs out and they are sent again (at-least-once), never lost.
   */
  private readonly acknowledged = new WriteBatch<Acknowledgement>();
  /** Deliveries fanned out or the claimed attempts running low since the send loop last claimed (and stop, to end its wait). */
  private readonly sendable = new Signal();
  /** Ends the fan-out loop's idle wait: a new event in the outbox (`wake`), or stop. */
  private readonly fanOutIdle = new Signal();
  private readonly housekeeper: Housekeeper;
  private readonly claimAhead: number;

  constructor(private readonly options: DispatcherOptions) {
    this.claimAhead = options.claimAhead ?? 2 * (options.concurrency ?? 128);
    this.housekeeper = new Housekeeper({
      db: options.db,
      logger: options.logger,
      now: options.now,
      holdMs: options.holdMs ?? HOLD_MS,
      retention: options.retention ?? DEFAULT_RETENTION,
    });
  }

  /**
   * One round of every step: fan-out, the housekeeping (so a release or a skip is seen by this round's
   * claim), then the claim, waiting for the attempts it started; for tests and one-off runs.
   */
  async tick(): Promise<{ fannedOut: number; attempted: number }> {
    const now = this.options.now();
    const fannedOut = await this.fanOutNewEvents(now);
    await this.housekeeper.run();
    const attempted = await this.fillSlots(now, 0);
    await this.settle();
    return { fannedOut, attempted };
  }

  /**
   * Runs until stopped, three loops side by side: fan-out (again at once while events arrive, otherwise
   * when woken, at most every WOKEN_ROUND_GAP_MS, or after `idleMs`), sending (free slots filled as
   * soon as an attempt finishes or deliveries are fanned out, and every `idleMs`), and the housekeeping
   * on its own cadence. Neither waits for the other: a burst's fan-out never holds up the slots that
   * free meanwhile.
   */
  start(idleMs = 100): void {
    if (this.running) return;
    this.running = true;
    this.housekeeper.start(this.options.housekeepingMs ?? 5_000);
    this.claimsEnded = this.sendLoop(idleMs);
    this.stopped = Promise.all([this.fanOutLoop(idleMs), this.claimsEnded]).then(() => this.settle());
  }

  /**
   * A new event is in the outbox (an OutboxListener heard it): fan out now rather than after `idleMs`.
   * The send loop needs no call of its own: a fan-out that made deliveries wakes it. What no outbox
   * write announces (a retry coming due, a released or resent delivery, a finished menu burst) waits
   * for the next `idleMs`, so with a listener that is a safety poll of about a second: retries are
   * minutes apart, and a second is nothing to the others.
   */
  wake(): void {
    this.fanOutIdle.notify();
  }

  /**
   * Stops taking work, gives back the attempts claimed ahead at once (another dispatcher takes them
   * now, not after the attempts in flight, nor when their lease runs out), and returns once the
   * attempts in flight have finished and been recorded.
   */
  async stop(): Promise<void> {
    this.running = false;
    this.sendable.notify();
    this.fanOutIdle.notify();
    // Once a claim under way as stop began has brought its attempts in (they were leased already, and
    // would otherwise wait for the attempts in flight). A failure here leaves them waiting for the
    // second give-back, which reports it.
    const givenBack = this.claimsEnded
      .then(() => this.giveBackWaiting())
      .catch((err: unknown) =>
        this.options.logger.warn({ err }, 'giving back claimed attempts failed; trying again once the attempts in flight end'),
      );
    await Promise.all([this.stopped, this.housekeeper.stop(), givenBack]);
    await this.giveBackWaiting();
  }

  /** Gives back every claimed attempt waiting for a slot (their leases cleared). */
  private async giveBackWaiting(): Promise<void> {
    const unsent = [...this.ready.values()].flat();
    this.ready.clear();
    this.readyCount = 0;
    this.toGiveBack.add(...unsent.map(heldLease));
    await this.toGiveBack.write((held) => releaseClaimedDeliveries(this.options.db, held));
  }

  private async fanOutLoop(idleMs: number): Promise<void> {
    while (this.running) {
      const roundStarted = performance.now();
      try {
        if ((await this.fanOutNewEvents(this.options.now())) > 0) {
          this.sendable.notify();
          continue;
        }
      } catch (err) {
        this.options.logger.error({ err }, 'dispatcher fan-out failed');
        await this.pauseAfterFailure(this.fanOutIdle);
        continue;
      }
      // Every replica hears every outbox commit: woken rounds start at least WOKEN_ROUND_GAP_MS apart,
      // so a stream of single-event commits costs each replica a bounded number of (mostly empty) rounds.
      if (this.running && (await this.fanOutIdle.wait(idleMs))) {
        await sleep(Math.max(0, roundStarted + WOKEN_ROUND_GAP_MS - performance.now()));
      }
    }
  }

  private async sendLoop(idleMs: number): Promise<void> {
    while (this.running) {
      try {
        await this.fillSlots(this.options.now(), this.claimAhead);
      } catch (err) {
        this.options.logger.error({ err }, 'dispatcher claim failed');
        await this.pauseAfterFailure(this.sendable);
        continue;
      }
      if (this.running) await this.sendable.wait(idleMs);
    }
  }

  /**
   * After a failed round, FAILURE_PAUSE_MS whatever wakes the loop meanwhile (a failing database is not
   * asked again at every outbox write or finished attempt); only stopping ends it early.
   */
  private async pauseAfterFailure(wakes: Signal): Promise<void> {
    const until = performance.now() + FAILURE_PAUSE_MS;
    while (this.running && performance.now() < until) await wakes.wait(until - performance.now());
  }

  /** New outbox events become deliveries, and finished bursts of menu changes a menu.updated. */
  private async fanOutNewEvents(now: Date): Promise<number> {
    return (await this.fanOut(now)) + (await this.announceMenuUpdates(now));
  }

  /** Waits for every attempt in flight and records their successes. */
  private async settle(): Promise<void> {
    await Promise.all([...this.attempts]);
    if (this.acknowledged.length) await this.acknowledged.write((batch) => recordSucceededDeliveries(this.options.db, batch));
  }

  private async fanOut(now: Date): Promise<number> {
    return this.options.db.transaction().execute(async (tx) => {
      const events = await lockEventsToFanOut(tx, this.options.batchSize ?? 2000);
      // Events of one restaurant, type and addressee go to the same endpoints: look them up once.
      const targetsOf = new Map<string, Promise<FanOutTarget[]>>();
      const menuChanges = new Map<string, { changed: Set<string>; deleted: Set<string> }>();
      const menuChangeOf = (restaurantId: string) => {
        const change = menuChanges.get(restaurantId) ?? { changed: new Set<string>(), deleted: new Set<string>() };
        menuChanges.set(restaurantId, change);
        return change;
      };
      const deliveries: NewDelivery[] = [];
      // A change that never touched the published menu (a draft's) is the restaurant's business alone.
      // Events written before producers recorded it fall back to the dish's status now.
      const published = await findPublishedItemIds(
        tx,
        events
          .filter((event) => event.touches_published_menu === null)
          .map(itemIdOf)
          .filter((id): id is string => id !== null),
      );
      const onPublishedMenu = (event: OutboxEventRow, itemId: string) => event.touches_published_menu ?? published.has(itemId);
      for (const event of events) {
        if (event.type === MENU_CHANGE_NOTE) {
          menuChangeOf(event.restaurant_id);
          continue;
        }
        const key = `${event.restaurant_id}|${event.type}|${event.integrator_org_id ?? ''}`;
        if (!targetsOf.has(key)) targetsOf.set(key, findFanOutTargets(tx, event));
        const itemId = itemIdOf(event);
        const menuChange = itemId !== null && onPublishedMenu(event, itemId);
        for (const target of await targetsOf.get(key)!) {
          if (target.owner_kind === 'integrator' && itemId !== null && !menuChange) continue;
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
        // menu.updated is about the published menu: a draft's change is not part of it.
        if (itemId !== null && menuChange) {
          const change = menuChangeOf(event.restaurant_id);
          (event.type === 'item.deleted' ? change.deleted : change.changed).add(itemId);
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

  /** One menu.updated per burst of menu changes per restaurant, written to the outbox like any event. */
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

  /**
   * Records the successes so far, claims due attempts for the pool's free slots and `ahead` more, fairly
   * between owners, in one statement, and starts what the slots take. Receivers get no ordering promise
   * (spec 6.2: at-least-once, deduplicate on id); every event carries its createdAt.
   */
  private async fillSlots(now: Date, ahead: number): Promise<number> {
    // Every waiting attempt is looked at, not only those whose owner has a slot free: one stuck behind
    // slow attempts must be given back before its lease runs out, not replaced by the housekeeping.
    const startBy = this.startBy();
    for (const [owner, queue] of this.ready) if (!this.nextStartable(queue, startBy)) this.ready.delete(owner);
    await this.toGiveBack.write((held) => releaseClaimedDeliveries(this.options.db, held));
    // Free slots always: attempts waiting for owners at their limit must not keep another owner's out.
    const wanted = (this.options.concurrency ?? 128) - this.attempts.size + Math.max(0, ahead - this.readyCount);
    const claimed = await this.withReach(
      await this.acknowledged.write((acknowledged) =>
        claimDueDeliveries(this.options.db, now, this.options.leaseMs ?? 60_000, {
          limit: Math.max(0, Math.min(wanted, this.options.batchSize ?? 500)),
          perOwner: (this.options.ownerConcurrency ?? 32) + ahead,
          leased: this.leasedPerOwner(),
          scope: EVENTS_SCOPE,
          acknowledged,
        }),
      ),
    );
    for (const delivery of claimed) {
      const owner = ownerKey(delivery.endpoint);
      const queue = this.ready.get(owner);
      if (queue) queue.push(delivery);
      else this.ready.set(owner, [delivery]);
    }
    this.readyCount += claimed.length;
    this.startReady();
    return claimed.length;
  }

  /** An attempt whose lease ends before this time may not start (LEASE_LEFT_TO_START_MS). */
  private startBy(): number {
    return this.options.now().getTime() + LEASE_LEFT_TO_START_MS;
  }

  /**
   * The owner's next attempt that may start, once those ahead of it whose lease ran too low are set
   * aside to be given back; none when the queue is left empty. (A queue is in claim order, so its
   * leases end in order: those leading it are the ones that ran low.)
   */
  private nextStartable(queue: ClaimedAttempt[], startBy: number): ClaimedAttempt | undefined {
    while (queue.length && queue[0]!.claimed_until!.getTime() < startBy) {
      this.toGiveBack.add(heldLease(queue.shift()!));
      this.readyCount--;
    }
    return queue[0];
  }

  /** Attempts this dispatcher holds per owner: in flight or waiting for a slot. */
  private leasedPerOwner(): Map<string, number> {
    const leased = new Map(this.inFlight);
    for (const [owner, queue] of this.ready) leased.set(owner, (leased.get(owner) ?? 0) + queue.length);
    return leased;
  }

  /**
   * Fills free slots from the claimed attempts, one owner's at a time in turn, none past its limit. An
   * attempt whose lease ran too low while it waited is set aside to be given back, not started.
   */
  private startReady(): void {
    const concurrency = this.options.concurrency ?? 128;
    const ownerConcurrency = this.options.ownerConcurrency ?? 32;
    const startBy = this.startBy();
    let started = true;
    while (started && this.attempts.size < concurrency) {
      started = false;
      for (const [owner, queue] of this.ready) {
        if (this.attempts.size >= concurrency) break;
        const busy = this.inFlight.get(owner) ?? 0;
        if (busy >= ownerConcurrency) continue;
        const delivery = this.nextStartable(queue, startBy);
        if (delivery) {
          queue.shift();
          this.readyCount--;
          this.run(delivery, owner, busy);
          started = true;
        }
        if (queue.length === 0) this.ready.delete(owner);
      }
    }
    if (this.toGiveBack.length) this.sendable.notify();
  }

  private run(delivery: ClaimedAttempt, owner: string, busy: number): void {
    this.inFlight.set(owner, busy + 1);
    const running: Promise<void> = this.attempt(delivery)
      // Not recorded: its lease runs out and the housekeeping's replaceAbandonedAttempts sends it again.
      .catch((err: unknown) => this.options.logger.error({ err, deliveryId: delivery.id }, 'webhook attempt failed'))
      .finally(() => {
        const left = this.inFlight.get(owner)! - 1;
        if (left) this.inFlight.set(owner, left);
        else this.inFlight.delete(owner);
        this.attempts.delete(running);
        // Stopping, what waits is given back instead (see stop).
        if (this.running) this.startReady();
        // Claims come in batches: one per freed slot cost the database more than the attempts did.
        if (this.readyCount < this.claimAhead / 2) this.sendable.notify();
      });
    this.attempts.add(running);
  }

  /**
   * The claimed attempts that may go out now. Reach and lapse are checked here, as each attempt is
   * claimed (the claim reads both), and not only at fan-out or in the housekeeping's sweep: a retry, a
   * released or a resent delivery goes out long after its event was fanned out, and the sweep runs
   * only every few seconds. An integrator's attempt without an active grant is skipped; a lapsed
   * restaurant's is held again (released on renewal, expired after 72 h, as at fan-out). Attempts to a
   * disabled or deleted endpoint go on to `attempt`, which skips them.
   */
  private async withReach(claimed: ClaimedAttempt[]): Promise<ClaimedAttempt[]> {
    const skipped: string[] = [];
    const held: string[] = [];
    for (const delivery of claimed) {
      if (delivery.endpoint.deleted_at || delivery.endpoint.status !== 'active') continue;
      if (needsGrant(delivery) && !delivery.reach.granted) skipped.push(delivery.id);
      else if (delivery.reach.lapsed) held.push(delivery.id);
    }
    await setAsideClaimedDeliveries(this.options.db, skipped, { status: 'skipped', error: GRANT_ENDED });
    await setAsideClaimedDeliveries(this.options.db, held, { status: 'held', error: null });
    const setAside = new Set([...skipped, ...held]);
    return claimed.filter((delivery) => !setAside.has(delivery.id));
  }

  private async attempt(delivery: ClaimedAttempt): Promise<void> {
    const { db, sender } = this.options;
    const { endpoint, event } = delivery;
    if (endpoint.deleted_at || endpoint.status !== 'active') {
      const reason = endpoint.deleted_at ? 'endpoint deleted' : 'endpoint disabled';
      await recordDeliveryOutcome(db, delivery.id, { status: 'skipped', responseStatus: null, durationMs: null, error: reason });
      this.options.onAttempt?.('skipped');
      return;
    }
    // A trace of its own per attempt, linked to the traced change that wrote the event.
    const outcome = await traceLinkedTo(
      'webhook.deliver',
      event.trace_context,
      {
        'webhook.event_id': event.id,
        'webhook.event_type': event.type,
        'webhook.delivery_id': delivery.id,
        'webhook.attempt': delivery.attempt,
      },
      async (traced) => {
        const sent = await sendEvent(
          { sender, sealing: this.options.sealing, now: this.options.now },
          endpoint,
          { id: event.id, type: event.type, createdAt: event.created_at, data: event.data },
          delivery.id,
        );
        if (sent.status !== null) traced.attribute('http.response.status_code', sent.status);
        if (!sent.ok) traced.fail(sent.error);
        return sent;
      },
    );
    const recorded = { responseStatus: outcome.status, durationMs: outcome.durationMs, error: outcome.error };
    this.options.onAttempt?.(outcome.ok ? 'succeeded' : 'failed');
    if (outcome.ok) {
      this.acknowledged.add({ id: delivery.id, responseStatus: outcome.status!, durationMs: outcome.durationMs });
      return;
    }
    // The last attempt disables the endpoint unless it acknowledged another delivery since: those this
    // dispatcher holds unwritten (written with its next claim) must be on record to count.
    if (retryDelayMs(delivery.attempt, this.options.retryBaseMs) === null && this.acknowledged.length) {
      await this.acknowledged.write((batch) => recordSucceededDeliveries(db, batch));
    }
    const disabledFor = await db.transaction().execute(async (tx): Promise<string | null> => {
      await holdEndpointForRetry(tx, endpoint.id);
      // Replaced meanwhile: a second retry from here would send the event twice from now on.
      if (!(await recordDeliveryOutcome(tx, delivery.id, { status: 'failed', ...recorded }))) return null;
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

  /**
   * Disables the endpoint and records the owner's notification; returns the message told. Null when it
   * is no longer active (another failing attempt disabled it first, or it was deleted): one outage is
   * one notice and one e-mail, however many attempts were in flight.
   */
  private async disable(tx: Executor, endpoint: ClaimedAttempt['endpoint'], reason: string): Promise<string | null> {
    if (!(await disableActiveEndpoint(tx, endpoint.id, reason))) return null;
    const message = `Webhook endpoint ${endpoint.url} was disabled: ${reason} Re-enable it once it answers, then recover what it missed (POST /v1/partner/webhook-endpoints/${endpoint.id}/recover with the time it began failing).`;
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
