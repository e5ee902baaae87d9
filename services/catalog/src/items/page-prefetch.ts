import { LRUCache } from 'lru-cache';

/** A sync page's rows as the listing reads them: each item's JSON text. */
export type PageRows = { json: string }[];

/** A page is the cursor's at one limit: the cursor binds the restaurant and filters, not the limit. */
export const prefetchKey = (cursor: string, limit: number): string => `${limit}:${cursor}`;

/**
 * Sync pages read ahead, each held for the one request that asks for it. A read that fails is held as
 * `undefined` (never an unhandled rejection): the request that takes it reads the page afresh. Bounded
 * by count and by a short TTL, so a sync its client abandons frees its page within seconds; 64 pages
 * of 1,000 items (about 700 KB each) hold at most about 45 MB.
 */
export class PagePrefetch {
  private readonly reads: LRUCache<string, Promise<PageRows | undefined>>;

  constructor(private readonly options: { maxEntries?: number; ttlMs?: number; now?: () => number; onTake?: (hit: boolean) => void } = {}) {
    this.reads = new LRUCache({
      max: options.maxEntries ?? 64,
      ttl: options.ttlMs ?? 10_000,
      // Dropped when the TTL passes, not when the cache next fills: an abandoned page frees its memory.
      ttlAutopurge: true,
      // 0: read the (injectable) clock on every get, so a test's clock decides expiry.
      ttlResolution: 0,
      perf: { now: options.now ?? Date.now },
    });
  }

  hold(key: string, read: Promise<PageRows>): void {
    this.reads.set(
      key,
      read.catch(() => undefined),
    );
  }

  /** The read held under `key`, once: a second take of it is a miss. */
  take(key: string): Promise<PageRows | undefined> | undefined {
    const read = this.reads.get(key);
    if (read !== undefined) this.reads.delete(key);
    this.options.onTake?.(read !== undefined);
    return read;
  }
}
