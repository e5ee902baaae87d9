import type { TItem, TItemDetail, TItemStatus } from '@partner/contracts';
import { PageIterator } from './pagination.js';
import type { ListOptions } from './restaurants.js';
import { type ItemListMeta, type ItemPage, ItemSync, type SyncState } from './sync.js';
import { path, type RequestOptions, type Transport } from './transport.js';

export interface ItemListOptions extends ListOptions {
  status?: TItemStatus;
}

export interface ItemSyncOptions extends ListOptions, Partial<SyncState> {}

export class Items {
  constructor(private readonly transport: Transport) {}

  /** Every live item of a restaurant in (updatedAt, id) order, optionally of one status. */
  list(restaurantId: string, options: ItemListOptions = {}): PageIterator<TItem, ItemListMeta> {
    return new PageIterator((cursor) =>
      this.transport.json('GET', path`/v1/partner/restaurants/${restaurantId}/items`, {
        query: { limit: options.limit, status: options.status, cursor },
        signal: options.signal,
      }),
    );
  }

  /** One item with signed model URLs (`assets`), which expire: see `client.assets` to refresh them. */
  get(itemId: string, options: RequestOptions = {}): Promise<TItemDetail> {
    return this.transport.data('GET', path`/v1/partner/items/${itemId}`, options);
  }

  /**
   * Incremental sync from `updatedAfter` (a previous pass's end; omit it for a full listing first).
   * Iterate it once per poll; store `sync.updatedAfter` after each pass.
   */
  sync(restaurantId: string, options: ItemSyncOptions = {}): ItemSync {
    return new ItemSync(
      ({ updatedAfter, cursor }) =>
        this.transport.json<ItemPage>('GET', path`/v1/partner/restaurants/${restaurantId}/items`, {
          query: { limit: options.limit, updatedAfter, cursor },
          signal: options.signal,
        }),
      options,
    );
  }
}
