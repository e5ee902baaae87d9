import { findKeyWithOwnerByHash, type Db, type KeyWithOwner } from '@partner/db';
import { keyInvalidationChannel, parseKeyInvalidation, type KeyInvalidation } from '@partner/auth';
import type { Logger, RedisClient } from '@partner/kit';

interface Entry {
  record: KeyWithOwner | undefined;
  loadedAt: number;
}

/**
 * Key lookups by hash, cached in process. Console pushes invalidations over Redis pub/sub, so a
 * revocation or suspension reaches every replica within milliseconds; the TTL only bounds how long
 * an entry lives if a message was somehow missed while the subscription was up.
 */
export class KeyCache {
  private readonly entries = new Map<string, Entry>();
  private readonly pending = new Map<string, Promise<KeyWithOwner | undefined>>();
  /** Bumped by every invalidation, so a lookup that raced one never stores what it read. */
  private generation = 0;

  constructor(private readonly options: { db: Db; ttlMs: number; now?: () => number; maxEntries?: number }) {}

  async lookup(keyHash: string): Promise<KeyWithOwner | undefined> {
    const now = (this.options.now ?? Date.now)();
    const cached = this.entries.get(keyHash);
    if (cached && now - cached.loadedAt < this.options.ttlMs) return cached.record;
    // Concurrent misses for one key share a single query.
    let inFlight = this.pending.get(keyHash);
    if (!inFlight) {
      const generation = this.generation;
      inFlight = findKeyWithOwnerByHash(this.options.db, keyHash)
        .then((record) => {
          // Unknown keys are not cached: a key created a moment later must work at once.
          if (record && generation === this.generation) this.remember(keyHash, { record, loadedAt: now });
          return record;
        })
        .finally(() => this.pending.delete(keyHash));
      this.pending.set(keyHash, inFlight);
    }
    return inFlight;
  }

  invalidate(message: KeyInvalidation): void {
    for (const [hash, entry] of this.entries) {
      const record = entry.record;
      if (!record) continue;
      if ('keyId' in message ? record.key.id === message.keyId : record.owner.id === message.ownerId) {
        this.entries.delete(hash);
      }
    }
    this.generation++;
    this.pending.clear();
  }

  clear(): void {
    this.entries.clear();
    this.generation++;
    this.pending.clear();
  }

  private remember(hash: string, entry: Entry): void {
    const max = this.options.maxEntries ?? 100_000;
    if (this.entries.size >= max) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(hash, entry);
  }
}

/** Wires a cache to the invalidation channel; a fresh (re)subscription clears it, as messages may have been lost. */
export async function subscribeToInvalidations(cache: KeyCache, subscriber: RedisClient, prefix: string, logger: Logger): Promise<void> {
  subscriber.on('ready', () => cache.clear());
  await subscriber.subscribe(keyInvalidationChannel(prefix), (raw) => {
    const message = parseKeyInvalidation(raw);
    if (message) cache.invalidate(message);
    else logger.warn('ignored a malformed key invalidation');
  });
}
