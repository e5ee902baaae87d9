import type { Db } from '@partner/db';
import {
  deleteEventsWithoutDeliveries,
  deleteFinishedDeliveries,
  type FannedOutPosition,
  lockFannedOutEvents,
  lockFannedOutEventsAfter,
} from './retention.repository.js';

export interface RetentionPolicy {
  /** Finished deliveries (the delivery log) are kept this long; never less than the recovery window. */
  deliveriesMs: number;
  /** Outbox events are kept this long after their fan-out, and while a delivery of theirs is kept. */
  outboxMs: number;
  /** Rows one statement deletes at most: each batch is a short transaction of its own. */
  batchSize?: number;
}

export interface Purged {
  deliveries: number;
  events: number;
}

/**
 * Deletes what is past retention, in batches. A finished delivery goes `deliveriesMs` after it was made;
 * its event goes with the last delivery that refers to it. An event no delivery refers to (it reached no
 * endpoint) goes `outboxMs` after its fan-out; those are found by walking the fanned-out events in
 * fan-out order from where the previous walk stopped, so the walk never reads the same events twice
 * (after a restart it starts again from the oldest, once).
 */
export class Retention {
  private walked: FannedOutPosition | null = null;

  constructor(
    private readonly db: Db,
    private readonly policy: RetentionPolicy,
  ) {}

  /** Purges until nothing is past retention or `going()` turns false (checked between batches). */
  async purge(now: Date, going: () => boolean): Promise<Purged> {
    const limit = this.policy.batchSize ?? 5_000;
    const deliveriesBefore = new Date(now.getTime() - this.policy.deliveriesMs);
    const eventsBefore = new Date(now.getTime() - this.policy.outboxMs);
    const purged: Purged = { deliveries: 0, events: 0 };
    for (let full = true; full && going(); ) {
      const batch = await this.db.transaction().execute(async (tx) => {
        const { deleted, eventIds } = await deleteFinishedDeliveries(tx, deliveriesBefore, limit);
        const events = await deleteEventsWithoutDeliveries(tx, await lockFannedOutEvents(tx, eventIds, eventsBefore));
        return { deleted, events };
      });
      purged.deliveries += batch.deleted;
      purged.events += batch.events;
      full = batch.deleted === limit;
    }
    for (let full = true; full && going(); ) {
      const batch = await this.db.transaction().execute(async (tx) => {
        const locked = await lockFannedOutEventsAfter(tx, this.walked, eventsBefore, limit);
        const events = await deleteEventsWithoutDeliveries(
          tx,
          locked.map((row) => row.seq),
        );
        return { locked, events };
      });
      const last = batch.locked.at(-1);
      if (last) this.walked = { fannedOutAt: last.fanned_out_at, seq: last.seq };
      purged.events += batch.events;
      full = batch.locked.length === limit;
    }
    return purged;
  }
}
