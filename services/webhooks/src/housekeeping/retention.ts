import type { Db } from '@partner/db';
import { deleteEventsWithoutDeliveries, deleteFinishedDeliveries, findEventsAfter, lockFannedOutEvents } from './retention.repository.js';

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
 * endpoint) goes `outboxMs` after its fan-out; those are found by walking the outbox in `seq` order
 * from where the previous walk stopped, up to the first event not yet fanned out or not old enough, so
 * the walk never reads the same events twice (after a restart it starts again from the oldest, once).
 */
export class Retention {
  /** The outbox walk's position: every event up to this seq was looked at. */
  private walkedSeq = 0;

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
    for (let full = true; full && going();) {
      const batch = await this.db.transaction().execute(async (tx) => {
        const { deleted, eventIds } = await deleteFinishedDeliveries(tx, deliveriesBefore, limit);
        const events = await deleteEventsWithoutDeliveries(tx, await lockFannedOutEvents(tx, { ids: eventIds }, eventsBefore));
        return { deleted, events };
      });
      purged.deliveries += batch.deleted;
      purged.events += batch.events;
      full = batch.deleted === limit;
    }
    for (let full = true; full && going();) {
      const next = await findEventsAfter(this.db, this.walkedSeq, limit);
      const old = next.findIndex((event) => event.fanned_out_at === null || event.fanned_out_at >= eventsBefore);
      const due = old === -1 ? next : next.slice(0, old);
      if (due.length === 0) break;
      purged.events += await this.db.transaction().execute(async (tx) => {
        const seqs = due.map((event) => event.seq);
        return deleteEventsWithoutDeliveries(tx, await lockFannedOutEvents(tx, { seqs }, eventsBefore));
      });
      this.walkedSeq = due.at(-1)!.seq;
      full = due.length === limit;
    }
    return purged;
  }
}
