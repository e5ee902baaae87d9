import type { TAssetUrls } from '@partner/contracts';
import { LruMap } from './lru.js';
import { path, type MutationOptions, type Transport } from './transport.js';

export type AssetFormat = 'usdz' | 'glb';

export interface AssetUrlOptions extends MutationOptions {
  /** Only these formats (default both); a format left out comes back as null. */
  formats?: AssetFormat[];
}

/**
 * Signed model URLs expire (15 minutes by default). Cache the item, not the URL (spec 2.4): ask here
 * whenever you are about to hand URLs to a viewer, and get cached ones while they still have
 * `refreshMarginMs` to live, fresh ones otherwise.
 */
export class Assets {
  readonly #cache = new LruMap<string, TAssetUrls>(1000);

  constructor(
    private readonly transport: Transport,
    private readonly refreshMarginMs: number,
  ) {}

  /**
   * URLs valid for at least `refreshMarginMs` more: the cached ones, or new ones. It takes no
   * Idempotency-Key: a key reused a call later would replay the first answer, URLs since expired.
   */
  async get(itemId: string, options: Omit<AssetUrlOptions, 'idempotencyKey'> = {}): Promise<TAssetUrls> {
    const cached = this.#cache.get(cacheKey(itemId, options.formats));
    if (cached && Date.parse(cached.expiresAt) - this.transport.clock.now() > this.refreshMarginMs) return cached;
    return this.refresh(itemId, { formats: options.formats, signal: options.signal });
  }

  /** New URLs now (`POST /v1/partner/items/{id}/asset-urls`, counted against the quota); 409 model_not_ready without a ready model. */
  async refresh(itemId: string, options: AssetUrlOptions = {}): Promise<TAssetUrls> {
    const urls = await this.transport.data<TAssetUrls>('POST', path`/v1/partner/items/${itemId}/asset-urls`, {
      body: options.formats ? { formats: options.formats } : {},
      signal: options.signal,
      idempotencyKey: options.idempotencyKey,
    });
    this.#cache.set(cacheKey(itemId, options.formats), urls);
    return urls;
  }
}

const cacheKey = (itemId: string, formats: AssetFormat[] = ['glb', 'usdz']) => `${itemId}:${[...formats].sort().join(',')}`;
