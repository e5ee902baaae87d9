import { setTimeout as sleep } from 'node:timers/promises';
import { LRUCache } from 'lru-cache';
import type { Logger } from '@partner/http';
import type { MenuIndex } from './menu-index.js';

/** How long a turn waits for a new menu version's index before it answers from the previous one. */
export const STALE_AFTER_MS = 250;

/**
 * One index per restaurant, built once per menu version: the turns that find the version moved share
 * one build, and while it runs past `staleAfterMs` (`STALE_AFTER_MS`) they answer from the previous version's index
 * (docs/decisions.md). Bounded by the indexes' bytes, least recently asked first out.
 */
export class MenuIndexCache {
  private readonly cached: LRUCache<string, MenuIndex>;
  private readonly building = new Map<string, Promise<MenuIndex>>();

  constructor(
    private readonly builds: { build(restaurantId: string): Promise<MenuIndex> },
    private readonly options: { maxBytes: number; logger: Logger; staleAfterMs?: number },
  ) {
    this.cached = new LRUCache({ maxSize: options.maxBytes, sizeCalculation: (index) => index.bytes });
  }

  /** The restaurant's index at the menu version `etag` (`menuEtagOf` its row). */
  async get(restaurantId: string, etag: string): Promise<MenuIndex> {
    const previous = this.cached.get(restaurantId);
    if (previous?.etag === etag) return previous;
    const build = this.building.get(restaurantId) ?? this.rebuild(restaurantId);
    if (!previous) return build;
    return Promise.race([build.catch(() => previous), sleep(this.options.staleAfterMs ?? STALE_AFTER_MS, previous, { ref: false })]);
  }

  private rebuild(restaurantId: string): Promise<MenuIndex> {
    const build = this.builds
      .build(restaurantId)
      .then(
        (index) => {
          if (index.bytes > this.options.maxBytes) {
            this.options.logger.warn(
              { restaurantId, bytes: index.bytes },
              'menu index larger than CONCIERGE_INDEX_CACHE_MB: rebuilt every turn',
            );
          }
          this.cached.set(restaurantId, index);
          return index;
        },
        (err: unknown) => {
          this.options.logger.warn({ err, restaurantId }, 'menu index build failed');
          throw err;
        },
      )
      .finally(() => this.building.delete(restaurantId));
    this.building.set(restaurantId, build);
    return build;
  }
}
