import { type Db, findGrantedPairs, findLapsedRestaurantIds, grantPairKey } from '@partner/db';
import type { Logger } from '@partner/http';
import {
  expireHeldDeliveries,
  findAwaitedIntegratorPairs,
  findHeldRestaurantIds,
  releaseHeldDeliveries,
  replaceAbandonedAttempts,
  skipDeliveriesOfEndedGrants,
} from '../webhooks.repository.js';
import { Signal } from '../dispatcher/signal.js';
import { type Purged, Retention, type RetentionPolicy } from './retention.js';

export interface HousekeeperOptions {
  db: Db;
  logger: Logger;
  now: () => Date;
  /** A held delivery (its restaurant lapsed) expires this long after it was made. */
  holdMs: number;
  retention: RetentionPolicy;
}

const RETENTION_BATCHES_PER_PASS = 20;

/** The scope an integrator's grant needs for a restaurant's events to reach its endpoints. */
export const EVENTS_SCOPE = 'menu:read';

/**
 * The dispatcher's slow work, on a cadence of its own instead of every round: held deliveries released
 * on renewal or expired, waiting deliveries of ended grants skipped, attempts of a dispatcher that died
 * replaced once their lease has run out, and what is past retention deleted. Each statement reads an
 * index of the rows it concerns (the few still waiting, or the oldest finished), never the delivery
 * history. Nothing here decides what is sent: every claim checks reach and lapse again
 * (Dispatcher.withReach), so a slower sweep only delays releases, replacements and tidying.
 */
export class Housekeeper {
  private readonly retention: Retention;
  private running = false;
  /** Set by `stop`: retention ends after its current batch. */
  private halted = false;
  private stopped: Promise<void> | null = null;
  private readonly stopping = new Signal();

  constructor(private readonly options: HousekeeperOptions) {
    this.retention = new Retention(options.db, options.retention);
  }

  /**
   * One pass of every chore. Retention deletes at most `RETENTION_BATCHES_PER_PASS` batches a pass (a
   * first run over years of history takes many passes), so releases and expiries keep their cadence.
   */
  async run(): Promise<Purged> {
    const now = this.options.now();
    await this.skipDeliveriesWithoutGrant();
    await this.releaseRenewedRestaurants(now);
    await expireHeldDeliveries(this.options.db, new Date(now.getTime() - this.options.holdMs));
    await replaceAbandonedAttempts(this.options.db, now);
    let batches = 0;
    return this.retention.purge(now, () => !this.halted && batches++ < RETENTION_BATCHES_PER_PASS);
  }

  /** Runs a pass every `intervalMs` until stopped (the first at once). */
  start(intervalMs: number): void {
    if (this.running) return;
    this.running = true;
    this.halted = false;
    this.stopped = (async () => {
      while (this.running) {
        try {
          await this.run();
        } catch (err) {
          this.options.logger.error({ err }, 'webhook housekeeping failed');
        }
        if (this.running) await this.stopping.wait(intervalMs);
      }
    })();
  }

  /** Stops, and returns once the pass under way has ended (retention stops after its current batch). */
  async stop(): Promise<void> {
    this.running = false;
    this.halted = true;
    this.stopping.notify();
    await this.stopped;
  }

  /**
   * An integrator hears of a restaurant only while its grant (with `menu:read`) is active: pending and
   * held deliveries of a restaurant's events to an integrator whose grant ended are skipped, not sent.
   */
  private async skipDeliveriesWithoutGrant(): Promise<void> {
    const { db } = this.options;
    const awaited = await findAwaitedIntegratorPairs(db);
    const granted = await findGrantedPairs(db, awaited, EVENTS_SCOPE);
    await skipDeliveriesOfEndedGrants(
      db,
      awaited.filter((pair) => !granted.has(grantPairKey(pair))),
    );
  }

  /** Held deliveries of restaurants active again become due. */
  private async releaseRenewedRestaurants(now: Date): Promise<void> {
    const { db } = this.options;
    const held = await findHeldRestaurantIds(db);
    const lapsed = await findLapsedRestaurantIds(db, held);
    await releaseHeldDeliveries(
      db,
      held.filter((id) => !lapsed.has(id)),
      now,
    );
  }
}
