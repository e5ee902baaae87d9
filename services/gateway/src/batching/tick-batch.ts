/**
 * Gathers the calls made during one turn of the event loop and serves them all with one call of
 * `run`: one round trip to Postgres or Redis for the many requests a busy gateway reads from its
 * sockets at once, instead of one each. The first call of a turn schedules the flush with
 * `setImmediate`, which runs once that turn's I/O callbacks have all been handled, so a quiet
 * gateway adds no wait beyond the turn itself. `run` answers one result per item, in order.
 */
export class TickBatch<I, R> {
  private items: I[] = [];
  private waiters: { resolve: (result: R) => void; reject: (err: unknown) => void }[] = [];
  private scheduled = false;

  constructor(
    private readonly run: (items: I[]) => Promise<R[]>,
    private readonly maxItems = 256,
  ) {}

  add(item: I): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.items.push(item);
      this.waiters.push({ resolve, reject });
      if (this.items.length >= this.maxItems) this.flush();
      else if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => {
          this.scheduled = false;
          this.flush();
        });
      }
    });
  }

  private flush(): void {
    if (this.items.length === 0) return;
    const { items, waiters } = this;
    this.items = [];
    this.waiters = [];
    // Through a promise, so that a `run` throwing at once rejects its waiters like one failing later.
    const answered = Promise.resolve(items).then(this.run);
    answered.then(
      (results) => waiters.forEach((waiter, i) => waiter.resolve(results[i]!)),
      (err: unknown) => waiters.forEach((waiter) => waiter.reject(err)),
    );
  }
}
