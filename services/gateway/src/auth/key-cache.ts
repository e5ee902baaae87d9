import { findKeyWithOwnerByHash, type Db, type KeyWithOwner } from '@partner/db';
import { keyInvalidationChannel, parseKeyInvalidation, type KeyInvalidation } from '@partner/auth';
import type { Logger, RedisClient } from '@partner/kit';

interface Entry {
  record: KeyWithOwner | undefined;
  loadedAt: number;
}

/**
 * Unknown keys are remembered briefly, apart from known ones (so a flood of made-up keys can neither
 * reach the database on every request nor push real keys out). Safe: keys are 190-bit random, so no
 * one asks for a key before it exists.
 */
const UNKNOWN_TTL_MS = 10_000;
const MAX_UNKNOWN = 10_000;

/**
 * Key lookups by hash, cached in process. Console pushes invalidations over Redis pub/sub, so a
 * revocation or suspension reaches every replica within milliseconds; the TTL only bounds how long
 * an entry lives if a message was somehow missed while the subscription was up.
 */
export class KeyCache {
  private readonly entries = new Map<string, Entry>();
  private readonly unknown = new Map<string, number>();
  private readonly pending = new Map<string, Promise<KeyWithOwner | undefined>>();
  /** Bumped by every invalidation, so a lookup that raced one never stores what it read. */
  private generation = 0;

  constructor(private readonly options: { db: Db; ttlMs: number; now?: () => number; maxEntries?: number }) {}

  async lookup(keyHash: string): Promise<KeyWithOwner | undefined> {
    const now = (this.options.now ?? Date.now)();
    const cached = this.entries.get(keyHash);
    if (cached && now - cached.loadedAt < this.options.ttlMs) return cached.record;
    const missingSince = this.unknown.get(keyHash);
    if (missingSince !== undefined && now - missingSince < UNKNOWN_TTL_MS) return undefined;
    // Concurrent misses for one key share a single query.
    let inFlight = this.pending.get(keyHash);
    if (!inFlight) {
      const generation = this.generation;
      inFlight = findKeyWithOwnerByHash(this.options.db, keyHash)
        .then((record) => {
          if (generation !== this.generation) return record;
          if (record) this.remember(keyHash, { record, loadedAt: now });
          else this.rememberUnknown(keyHash, now);
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

  private rememberUnknown(hash: string, now: number): void {
    if (this.unknown.size >= MAX_UNKNOWN) this.unknown.delete(this.unknown.keys().next().value!);
    this.unknown.set(hash, now);
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
