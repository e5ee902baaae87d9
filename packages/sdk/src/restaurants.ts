import type { TRestaurant } from '@partner/contracts';
import { PageIterator } from './pagination.js';
import type { RequestOptions, Transport } from './transport.js';

/** Options of every list: the page size (1 to 1000, the API's default 100). */
export interface ListOptions extends RequestOptions {
  limit?: number;
}

export class Restaurants {
  constructor(private readonly transport: Transport) {}

  /** Every restaurant the key can read (`GET /v1/partner/restaurants`). */
  list(options: ListOptions = {}): PageIterator<TRestaurant> {
    return new PageIterator((cursor) =>
      this.transport.json('GET', '/v1/partner/restaurants', { query: { limit: options.limit, cursor }, signal: options.signal }),
    );
  }
}
