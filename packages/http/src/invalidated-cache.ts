import { LRUCache } from 'lru-cache';
import type { Logger } from './logger.js';
import type { RedisClient } from './redis.js';

/**
 * Values loaded on demand and kept in process (least recently used out past `maxEntries`) until an
 * invalidation drops them or their TTL passes. Concurrent misses for one key share a single load. A
 * load that raced an invalidation answers its callers but is never stored: it may hold exactly what
 * the invalidation replaced. Absent values (a load answering undefined) are not stored.
 *
 * With `indexBy`, each value is filed under the names it gives (its id, its owner's...) and
 * `invalidateIndexed(name)` drops exactly the entries filed there, without looking at the others.
 */
export class InvalidatedCache<V extends object> {
  private readonly entries: LRUCache<string, V>;
  private readonly pending = new Map<string, Promise<V | undefined>>();
  /** Index name → keys of the entries filed under it; kept in step with `entries` by its dispose hook. */
  private readonly index = new Map<string, Set<string>>();
  /** Bumped by every invalidation, so a load that began before one never stores what it read. */
  private generation = 0;

  constructor(
    private readonly options: { ttlMs: number; maxEntries: number; now?: () => number; indexBy?: (value: V) => readonly string[] },
  ) {
    const indexBy = options.indexBy;
    this.entries = new LRUCache({
      // Bounded by count through maxSize, not max: lru-cache allocates `max` slots up front (the
      // gateway's 100,000-key cache cost every replica about 10 MB of idle memory, used or not).
      maxSize: options.maxEntries,
      sizeCalculation: () => 1,
      ttl: options.ttlMs,
      // 0: read the (injectable) clock on every get, so a test's clock decides expiry.
      ttlResolution: 0,
      perf: { now: options.now ?? Date.now },
      // Evicted, expired, deleted or replaced: the entry leaves the index with it.
      dispose: indexBy && ((value, key) => indexBy(value).forEach((name) => this.unfile(name, key))),
    });
  }

  /** The cached value, if any: a hit answers without a promise (the hot path's common case). */
  peek(key: string): V | undefined {
    return this.entries.get(key);
  }

  get(key: string, load: () => Promise<V | undefined>): Promise<V | undefined> {
    const cached = this.entries.get(key);
    if (cached !== undefined) return Promise.resolve(cached);
    let inFlight = this.pending.get(key);
    if (!inFlight) {
      const generation = this.generation;
      inFlight = load()
        .then((value) => {
          // A TTL of 0 means "do not cache" (lru-cache reads 0 as "forever").
          if (value !== undefined && generation === this.generation && this.options.ttlMs > 0) this.store(key, value);
          return value;
        })
        .finally(() => {
          if (this.pending.get(key) === inFlight) this.pending.delete(key);
        });
      this.pending.set(key, inFlight);
    }
    return inFlight;
  }

  /** Drops the entries filed under `name` by `indexBy`, whatever else is cached, and forgets loads in flight. */
  invalidateIndexed(name: string): void {
    // A copy: each delete unfiles its key from this very set.
    for (const key of [...(this.index.get(name) ?? [])]) this.entries.delete(key);
    this.forgetLoads();
  }

  /** Drops every entry whose value matches (a scan of them all), and forgets loads in flight. */
  invalidateWhere(matches: (value: V) => boolean): void {
    for (const [key, value] of this.entries.entries()) {
      if (matches(value)) this.entries.delete(key);
    }
    this.forgetLoads();
  }

  clear(): void {
    this.entries.clear();
    this.forgetLoads();
  }

  private store(key: string, value: V): void {
    this.entries.set(key, value);
    for (const name of this.options.indexBy?.(value) ?? []) {
      let keys = this.index.get(name);
      if (!keys) this.index.set(name, (keys = new Set()));
      keys.add(key);
    }
  }

  private unfile(name: string, key: string): void {
    const keys = this.index.get(name);
    if (!keys) return;
    keys.delete(key);
    if (keys.size === 0) this.index.delete(name);
  }

  private forgetLoads(): void {
    this.generation++;
    this.pending.clear();
  }
}

/** A message naming one thing by one of the channel's fields: `{ keyId }`, `{ restaurantId }`... */
export type InvalidationMessage<F extends string> = { [K in F]: { [P in K]: string } }[F];

/**
 * A Redis pub/sub channel on which a writer tells every replica, once a change has committed, which
 * cached things it touched. A malformed message parses to null and invalidates nothing.
 */
export class InvalidationChannel<F extends string> {
  constructor(
    private readonly suffix: string,
    private readonly fields: readonly F[],
  ) {}

  name(prefix: string): string {
    return `${prefix}${this.suffix}`;
  }

  async publish(redis: RedisClient, prefix: string, message: InvalidationMessage<F>): Promise<void> {
    await redis.publish(this.name(prefix), JSON.stringify(message));
  }

  parse(raw: string): InvalidationMessage<F> | null {
    try {
      const value = JSON.parse(raw) as Record<string, unknown>;
      const field = this.fields.find((name) => typeof value[name] === 'string');
      if (field) return { [field]: value[field] } as InvalidationMessage<F>;
    } catch {
      // fall through
    }
    return null;
  }
}

/**
 * Applies the messages of one pub/sub channel to an in-process cache. A (re)connected subscriber
 * clears the cache first: messages published while it was away are lost, so nothing cached before
 * may be kept.
 */
export async function subscribeToInvalidations<F extends string>(
  subscriber: RedisClient,
  channel: { channel: InvalidationChannel<F>; prefix: string },
  cache: { invalidate(message: InvalidationMessage<F>): void; clear(): void },
  logger: Logger,
): Promise<void> {
  const name = channel.channel.name(channel.prefix);
  subscriber.on('ready', () => cache.clear());
  await subscriber.subscribe(name, (raw) => {
    const message = channel.channel.parse(raw);
    if (message) cache.invalidate(message);
    else logger.warn({ channel: name }, 'ignored a malformed invalidation message');
  });
}
