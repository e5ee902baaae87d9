import { LRUCache } from 'lru-cache';
import { type Db, findKeyWithOwnerByHash, type KeyWithOwner } from '@partner/db';
import { InvalidatedCache, type KeyInvalidation } from '@partner/http';

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
  private readonly known: InvalidatedCache<KeyWithOwner>;
  private readonly unknown: LRUCache<string, true>;
  private readonly now: () => number;

  constructor(private readonly options: { db: Db; ttlMs: number; now?: () => number; maxEntries?: number }) {
    this.now = options.now ?? Date.now;
    this.known = new InvalidatedCache({ ttlMs: options.ttlMs, maxEntries: options.maxEntries ?? 100_000, now: this.now });
    this.unknown = new LRUCache({ max: MAX_UNKNOWN, ttl: UNKNOWN_TTL_MS, ttlResolution: 0, perf: { now: this.now } });
  }

  /** `beforeQuery` runs only when the lookup must go to the database (it may refuse by throwing). */
  async lookup(keyHash: string, beforeQuery?: () => Promise<void>): Promise<KeyWithOwner | undefined> {
    if (this.unknown.has(keyHash)) return undefined;
    const record = await this.known.get(keyHash, async () => {
      await beforeQuery?.();
      return findKeyWithOwnerByHash(this.options.db, keyHash);
    });
    if (!record) this.unknown.set(keyHash, true);
    return record;
  }

  invalidate(message: KeyInvalidation): void {
    this.known.invalidateWhere((record) => ('keyId' in message ? record.key.id === message.keyId : record.owner.id === message.ownerId));
  }

  clear(): void {
    this.known.clear();
  }
}
