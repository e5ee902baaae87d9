import { findKeyWithOwnerByHash, type Db, type KeyWithOwner } from '@partner/db';
import type { KeyInvalidation } from '@partner/auth';
import { InvalidatedCache } from '@partner/kit';

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
  private readonly unknown = new Map<string, number>();
  private readonly now: () => number;

  constructor(private readonly options: { db: Db; ttlMs: number; now?: () => number; maxEntries?: number }) {
    this.now = options.now ?? Date.now;
    this.known = new InvalidatedCache({ ttlMs: options.ttlMs, maxEntries: options.maxEntries ?? 100_000, now: this.now });
  }

  async lookup(keyHash: string): Promise<KeyWithOwner | undefined> {
    const missingSince = this.unknown.get(keyHash);
    if (missingSince !== undefined && this.now() - missingSince < UNKNOWN_TTL_MS) return undefined;
    const record = await this.known.get(keyHash, () => findKeyWithOwnerByHash(this.options.db, keyHash));
    if (!record) this.rememberUnknown(keyHash);
    return record;
  }

  invalidate(message: KeyInvalidation): void {
    this.known.invalidateWhere((record) => ('keyId' in message ? record.key.id === message.keyId : record.owner.id === message.ownerId));
  }

  clear(): void {
    this.known.clear();
  }

  private rememberUnknown(hash: string): void {
    if (this.unknown.size >= MAX_UNKNOWN) this.unknown.delete(this.unknown.keys().next().value!);
    this.unknown.set(hash, this.now());
  }
}
