interface Lane<T> {
  waiters: PromiseWithResolvers<T>[];
  reading: boolean;
}

/**
 * Concurrent reads of one key share a query, the way UsageMeter shares a count: a caller waits for the
 * next read to begin, never for one already under way, so no answer is older than its request (a 304
 * never misses a change committed before the request arrived). Fifty pollers of one menu cost one
 * query at a time, not fifty.
 */
export class CoalescedReads<T> {
  private readonly lanes = new Map<string, Lane<T>>();

  read(key: string, load: () => Promise<T>): Promise<T> {
    let lane = this.lanes.get(key);
    if (!lane) {
      lane = { waiters: [], reading: false };
      this.lanes.set(key, lane);
    }
    const waiter = Promise.withResolvers<T>();
    lane.waiters.push(waiter);
    if (!lane.reading) void this.drain(key, lane, load);
    return waiter.promise;
  }

  private async drain(key: string, lane: Lane<T>, load: () => Promise<T>): Promise<void> {
    lane.reading = true;
    while (lane.waiters.length) {
      const batch = lane.waiters.splice(0, lane.waiters.length);
      try {
        const value = await load();
        for (const waiter of batch) waiter.resolve(value);
      } catch (err) {
        for (const waiter of batch) waiter.reject(err);
      }
    }
    this.lanes.delete(key);
  }
}
