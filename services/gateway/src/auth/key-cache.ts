import { LRUCache } from 'lru-cache';
import type { KeyPrincipal } from '@partner/auth';
import type { TEnvironment } from '@partner/contracts';
import { type Db, findKeysWithOwnerByHash, type KeyWithOwner } from '@partner/db';
import { InvalidatedCache, type KeyInvalidation } from '@partner/http';
import { TickBatch } from '../batching/tick-batch.js';

/**
 * Unknown keys are remembered briefly, apart from known ones (so a flood of made-up keys can neither
 * reach the database on every request nor push real keys out). Safe: keys are 190-bit random, so no
 * one asks for a key before it exists.
 */
const UNKNOWN_TTL_MS = 10_000;
const MAX_UNKNOWN = 10_000;
/** How long a key that resolved stays recognised after its entry is gone (see `lookup`'s `beforeQuery`). */
const RECOGNISED_TTL_MS = 24 * 3600_000;

/** A key as the edge uses it: its row, its owner, and the principal its internal tokens carry. */
export interface AuthenticatedKey extends KeyWithOwner {
  environment: TEnvironment;
  principal: KeyPrincipal;
}

/** Built once per lookup, not per request: the cache hands out the same object until it drops it. */
function authenticated(record: KeyWithOwner): AuthenticatedKey {
  const { key, owner } = record;
  return {
    key,
    owner,
    environment: key.environment,
    principal: {
      kind: 'key',
      keyId: key.id,
      keyType: key.type,
      environment: key.environment,
      scopes: key.scopes as KeyPrincipal['scopes'],
      owner: { kind: owner.kind, id: owner.id },
    },
  };
}

const byKeyId = (keyId: string) => `key:${keyId}`;
const byOwnerId = (ownerId: string) => `owner:${ownerId}`;

/**
 * Key lookups by hash, cached in process, least recently used out past `maxEntries` (size it to the
 * keys active within a TTL: a bound below that makes every request of the coldest keys a miss).
 * Console pushes invalidations over Redis pub/sub, so a revocation or suspension reaches every
 * replica within milliseconds; each drops just the entries of that key or owner, found through the
 * cache's index. The TTL only bounds how long an entry lives if a message was somehow missed while
 * the subscription was up. The misses of one event-loop turn share one query.
 */
export class KeyCache {
  private readonly known: InvalidatedCache<AuthenticatedKey>;
  private readonly unknown: LRUCache<string, true>;
  /** Hashes that resolved to a key (revoked ones too): a real key, not a guess. */
  private readonly recognised: LRUCache<string, true>;
  private readonly misses: TickBatch<string, AuthenticatedKey | undefined>;

  constructor(options: { db: Db; ttlMs: number; maxEntries: number; now?: () => number }) {
    const now = options.now ?? Date.now;
    this.known = new InvalidatedCache({
      ttlMs: options.ttlMs,
      maxEntries: options.maxEntries,
      now,
      indexBy: (record) => [byKeyId(record.key.id), byOwnerId(record.owner.id)],
    });
    this.unknown = new LRUCache({ max: MAX_UNKNOWN, ttl: UNKNOWN_TTL_MS, ttlResolution: 0, perf: { now } });
    // Counted by size rather than `max`, which would allocate every slot up front (see InvalidatedCache).
    this.recognised = new LRUCache({ maxSize: options.maxEntries, sizeCalculation: () => 1, ttl: RECOGNISED_TTL_MS, perf: { now } });
    this.misses = new TickBatch(async (hashes) => {
      const found = new Map(
        (await findKeysWithOwnerByHash(options.db, hashes)).map((record) => [record.key.key_hash, authenticated(record)]),
      );
      return hashes.map((hash) => found.get(hash));
    });
  }

  /** The key behind this hash if it is cached; `lookup` otherwise. */
  cached(keyHash: string): AuthenticatedKey | undefined {
    return this.known.peek(keyHash);
  }

  /**
   * `beforeQuery` runs only when the lookup of a key not recognised must go to the database (it may
   * refuse by throwing): a key that resolved before (its entry expired, or was invalidated) is looked up
   * again without it, so that an address calling with many real keys is never taken for a guesser.
   */
  async lookup(keyHash: string, beforeQuery?: () => Promise<unknown>): Promise<AuthenticatedKey | undefined> {
    if (this.unknown.has(keyHash)) return undefined;
    const record = await this.known.get(keyHash, async () => {
      if (!this.recognised.has(keyHash)) await beforeQuery?.();
      return this.misses.add(keyHash);
    });
    if (record) this.recognised.set(keyHash, true);
    else this.unknown.set(keyHash, true);
    return record;
  }

  invalidate(message: KeyInvalidation): void {
    this.known.invalidateIndexed('keyId' in message ? byKeyId(message.keyId) : byOwnerId(message.ownerId));
  }

  clear(): void {
    this.known.clear();
  }
}
