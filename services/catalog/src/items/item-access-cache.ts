import { type Executor, findLiveItemForOwner, type Owner } from '@partner/db';
import { type AccessInvalidation, InvalidatedCache } from '@partner/http';

export type ItemAccess = NonNullable<Awaited<ReturnType<typeof findLiveItemForOwner>>>;

/**
 * What the item routes ask on every call (the live item, whether this owner reaches it, the
 * restaurant's entitlements, the grant's scopes), cached per owner and item: the item-detail path
 * then needs no query but the quota's. Console publishes an invalidation after each committed change
 * to an item, a restaurant or a grant, so replicas drop stale entries within milliseconds; the TTL
 * bounds an entry's life should a message be missed while the subscription is up. Misses (missing
 * or unreachable items) are not cached. Entries are shared: callers must not change them.
 */
export class ItemAccessCache {
  private readonly cache: InvalidatedCache<ItemAccess>;

  constructor(
    private readonly db: Executor,
    options: { ttlMs: number; maxEntries?: number; now?: () => number },
  ) {
    this.cache = new InvalidatedCache({ ttlMs: options.ttlMs, maxEntries: options.maxEntries ?? 20_000, now: options.now });
  }

  find(owner: Owner, itemId: string): Promise<ItemAccess | undefined> {
    return this.cache.get(`${owner.kind}:${owner.id}:${itemId}`, () => findLiveItemForOwner(this.db, owner, itemId));
  }

  invalidate(message: AccessInvalidation): void {
    this.cache.invalidateWhere((access) =>
      'itemId' in message ? access.item.id === message.itemId : access.restaurant.id === message.restaurantId,
    );
  }

  clear(): void {
    this.cache.clear();
  }
}
