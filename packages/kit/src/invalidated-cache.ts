import type { Logger } from './logger.js';
import type { RedisClient } from './redis.js';

interface Entry<V> {
  value: V;
  loadedAt: number;
}

/**
 * Values loaded on demand and kept in process until an invalidation drops them, their TTL passes or
 * the size bound pushes the oldest out. Concurrent misses for one key share a single load. A load
 * that raced an invalidation answers its callers but is never stored: it may hold exactly what the
 * invalidation replaced. Absent values (a load answering undefined) are not stored.
 */
export class InvalidatedCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private readonly pending = new Map<string, Promise<V | undefined>>();
  /** Bumped by every invalidation, so a load that began before one never stores what it read. */
  private generation = 0;

  constructor(private readonly options: { ttlMs: number; maxEntries: number; now?: () => number }) {}

  get(key: string, load: () => Promise<V | undefined>): Promise<V | undefined> {
    const now = (this.options.now ?? Date.now)();
    const cached = this.entries.get(key);
    if (cached && now - cached.loadedAt < this.options.ttlMs) return Promise.resolve(cached.value);
    let inFlight = this.pending.get(key);
    if (!inFlight) {
      const generation = this.generation;
      inFlight = load()
        .then((value) => {
          if (value !== undefined && generation === this.generation) this.remember(key, { value, loadedAt: now });
          return value;
        })
        .finally(() => {
          if (this.pending.get(key) === inFlight) this.pending.delete(key);
        });
      this.pending.set(key, inFlight);
    }
    return inFlight;
  }

  /** Drops every entry whose value matches, and forgets loads in flight. */
  invalidateWhere(matches: (value: V) => boolean): void {
    for (const [key, entry] of this.entries) {
      if (matches(entry.value)) this.entries.delete(key);
    }
    this.generation++;
    this.pending.clear();
  }

  clear(): void {
    this.entries.clear();
    this.generation++;
    this.pending.clear();
  }

  private remember(key: string, entry: Entry<V>): void {
    if (this.entries.size >= this.options.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, entry);
  }
}

/**
 * Applies the messages of one pub/sub channel to in-process caches. A (re)connected subscriber calls
 * `reset` first: messages published while it was away are lost, so nothing cached before may be kept.
 */
export async function subscribeToInvalidations<M>(
  subscriber: RedisClient,
  channel: string,
  handlers: { parse: (raw: string) => M | null; apply: (message: M) => void; reset: () => void },
  logger: Logger,
): Promise<void> {
  subscriber.on('ready', handlers.reset);
  await subscriber.subscribe(channel, (raw) => {
    const message = handlers.parse(raw);
    if (message) handlers.apply(message);
    else logger.warn({ channel }, 'ignored a malformed invalidation message');
  });
}
