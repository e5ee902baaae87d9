import type { TMenu } from '@partner/contracts';
import { LruMap } from './lru.js';
import { path, type RequestOptions, type Transport } from './transport.js';

export interface CachedMenu {
  etag: string;
  menu: TMenu;
}

/** Where menus are kept between calls; the default holds them in memory. Bring your own to share or persist them. */
export interface MenuCache {
  get(restaurantId: string): CachedMenu | undefined | Promise<CachedMenu | undefined>;
  set(restaurantId: string, entry: CachedMenu): void | Promise<void>;
}

/** The last `max` menus asked for, in memory. */
export class MemoryMenuCache implements MenuCache {
  readonly #entries: LruMap<string, CachedMenu>;

  constructor(max = 100) {
    this.#entries = new LruMap(max);
  }

  get(restaurantId: string): CachedMenu | undefined {
    return this.#entries.get(restaurantId);
  }

  set(restaurantId: string, entry: CachedMenu): void {
    this.#entries.set(restaurantId, entry);
  }
}

export class Menus {
  constructor(
    private readonly transport: Transport,
    private readonly cache: MenuCache,
  ) {}

  /**
   * A restaurant's published menu. Asks with the cached menu's ETag; an unchanged menu answers 304
   * (counted against no quota) and the cached menu is returned, the very same object.
   */
  async get(restaurantId: string, options: RequestOptions = {}): Promise<TMenu> {
    const cached = await this.cache.get(restaurantId);
    const res = await this.transport.send('GET', path`/v1/partner/restaurants/${restaurantId}/menu`, {
      headers: cached ? { 'if-none-match': cached.etag } : {},
      accept: [304],
      signal: options.signal,
    });
    if (res.status === 304 && cached) return cached.menu;
    const { data: menu } = (await res.json()) as { data: TMenu };
    const etag = res.headers.get('etag');
    if (etag) await this.cache.set(restaurantId, { etag, menu });
    return menu;
  }
}
