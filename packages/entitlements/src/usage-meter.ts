import { consumeUsage, type UsageCounter } from './usage.repository.js';
import type { Db } from '@partner/db';

interface Waiter {
  resolve: (granted: boolean) => void;
  reject: (err: unknown) => void;
}

interface Lane {
  counter: UsageCounter;
  queue: Waiter[];
  flushing: boolean;
}

/**
 * Atomic usage metering without a hot-row convoy. Every unit is granted by Postgres (exact under any
 * concurrency, durable, shared by every replica), but concurrent requests for one counter share a
 * round trip: while one update is in flight the next requests queue, and the following update takes
 * them all at once. A lone request goes straight through; under load one update serves many.
 */
export class UsageMeter {
  private readonly lanes = new Map<string, Lane>();

  constructor(private readonly db: Db) {}

  /** Whether one unit was granted. */
  take(counter: UsageCounter): Promise<boolean> {
    const id = `${counter.restaurantId}|${counter.metric}|${counter.periodStart.toISOString()}|${counter.limit}`;
    let lane = this.lanes.get(id);
    if (!lane) {
      lane = { counter, queue: [], flushing: false };
      this.lanes.set(id, lane);
    }
    const granted = new Promise<boolean>((resolve, reject) => lane.queue.push({ resolve, reject }));
    if (!lane.flushing) void this.flush(id, lane);
    return granted;
  }

  private async flush(id: string, lane: Lane): Promise<void> {
    lane.flushing = true;
    while (lane.queue.length) {
      const batch = lane.queue.splice(0, lane.queue.length);
      try {
        const granted = await consumeUsage(this.db, lane.counter, batch.length);
        batch.forEach((waiter, index) => waiter.resolve(index < granted));
      } catch (err) {
        for (const waiter of batch) waiter.reject(err);
      }
    }
    lane.flushing = false;
    this.lanes.delete(id);
  }
}
