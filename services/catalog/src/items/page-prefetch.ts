import { LRUCache } from 'lru-cache';

/** A sync page's rows as the listing reads them: each item's JSON text. */
export type PageRows = { json: string }[];

/** A page is the cursor's at one limit: the cursor binds the restaurant and filters, not the limit. */
export const prefetchKey = (cursor: string, limit: number): string => `${limit}:${cursor}`;

/** A held page's memory: V8 keeps a string holding any non-Latin-1 character at two bytes a character. */
const bytesOf = (rows: PageRows): number => rows.reduce((sum, row) => sum + 2 * row.json.length, 0);

/**
 * Sync pages read ahead, each held for the one request that asks for it. A read that fails is held as
 * `undefined` (never an unhandled rejection): the request that takes it reads the page afresh. Bounded
 * by count, by the bytes of the pages read (64 MB by default; a read still under way counts as nothing,
 * and there are never more of those than the pool has connections) and by a short TTL, so a sync its
 * client abandons frees its page within seconds.
 */
export class PagePrefetch {
  /** Each read in a box of its own: lru-cache keeps an entry's size when it is set again to the same value. */
  private readonly reads: LRUCache<string, { rows: Promise<PageRows | undefined> }>;

  constructor(
    private readonly options: {
      maxEntries?: number;
      maxBytes?: number;
      ttlMs?: number;
      now?: () => number;
      onTake?: (hit: boolean) => void;
    } = {},
  ) {
    this.reads = new LRUCache({
      max: options.maxEntries ?? 64,
      maxSize: options.maxBytes ?? 64 * 1024 * 1024,
      ttl: options.ttlMs ?? 10_000,
      // Dropped when the TTL passes, not when the cache next fills: an abandoned page frees its memory.
      ttlAutopurge: true,
      // 0: read the (injectable) clock on every get, so a test's clock decides expiry.
      ttlResolution: 0,
      perf: { now: options.now ?? Date.now },
    });
  }

  hold(key: string, read: Promise<PageRows>): void {
    const rows = read.then(
      (page) => {
        // Sized once read; a page larger than the whole bound is dropped here, and read again on request.
        if (this.reads.peek(key)?.rows === rows) this.reads.set(key, { rows }, { size: Math.max(1, bytesOf(page)), noUpdateTTL: true });
        return page;
      },
      () => undefined,
    );
    this.reads.set(key, { rows }, { size: 1 });
  }

  /** The read held under `key`, once: a second take of it is a miss. */
  take(key: string): Promise<PageRows | undefined> | undefined {
    const held = this.reads.get(key);
    if (held !== undefined) this.reads.delete(key);
    this.options.onTake?.(held !== undefined);
    return held?.rows;
  }
}
