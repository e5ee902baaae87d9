import { InvalidatedCache, type MenuInvalidation } from '@partner/http';

interface RenderedPage {
  restaurantId: string;
  html: string;
}

/**
 * Rendered public menu pages, per restaurant, so that a page read a thousand times a minute costs the
 * database nothing after the first. Console announces every committed menu change and replicas drop the
 * page at once; the TTL bounds a page's life should a message be missed, and catches what no write
 * announces (a subscription running out). Pages that do not exist are not cached.
 */
export class MenuPageCache {
  private readonly cache: InvalidatedCache<RenderedPage>;

  constructor(options: { ttlMs: number; maxEntries?: number }) {
    this.cache = new InvalidatedCache({ ttlMs: options.ttlMs, maxEntries: options.maxEntries ?? 1_000 });
  }

  async get(restaurantId: string, render: () => Promise<string | null>): Promise<string | null> {
    const page = await this.cache.get(restaurantId, async () => {
      const html = await render();
      return html === null ? undefined : { restaurantId, html };
    });
    return page?.html ?? null;
  }

  invalidate(message: MenuInvalidation): void {
    this.cache.invalidateWhere((page) => page.restaurantId === message.restaurantId);
  }

  clear(): void {
    this.cache.clear();
  }
}
