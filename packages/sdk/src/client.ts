import type { TKeyMetadata } from '@partner/contracts';
import { Assets } from './assets.js';
import { Concierge } from './concierge.js';
import { Items } from './items.js';
import { MemoryMenuCache, type MenuCache, Menus } from './menu.js';
import { Restaurants } from './restaurants.js';
import { type Clock, type RetryOptions, systemClock } from './retry.js';
import { type FetchLike, type RequestOptions, Transport } from './transport.js';
import { WebhookDeliveries, WebhookEndpoints } from './webhook-endpoints.js';

export interface PartnerClientOptions {
  /** A secret key, `svc_sk_live_…` or `svc_sk_test_…`. Keep it on your server. */
  apiKey: string;
  /**
   * Where the API answers, without `/v1`: your platform's gateway (`http://localhost:8080` for
   * `pnpm start`). Required: a client that guessed would send its secret key to the wrong host.
   */
  baseUrl: string;
  /** Default: the runtime's global `fetch`. */
  fetch?: FetchLike;
  /** Retries of 429 and 503 answers (default 3 retries within 60 s); `false` for none. */
  retry?: RetryOptions | false;
  /** Where menus and their ETags are kept (default: the last 100, in memory). */
  menuCache?: MenuCache;
  /** How long signed asset URLs must still live to be handed out from the cache (default 2 minutes). */
  assetRefreshMarginMs?: number;
  /** For tests: the time, and how the client waits. */
  clock?: Clock;
  /** For tests: the jitter's randomness, in [0, 1). */
  random?: () => number;
}

/**
 * The Partner API. One client per key; it holds the menu and asset URL caches, so keep it around.
 *
 * ```ts
 * const client = new PartnerClient({ apiKey: process.env.PARTNER_API_KEY!, baseUrl: process.env.PARTNER_API_URL! });
 * for await (const item of client.items.list('rst_…')) console.log(item.name);
 * ```
 */
export class PartnerClient {
  readonly restaurants: Restaurants;
  readonly items: Items;
  readonly menus: Menus;
  readonly assets: Assets;
  readonly concierge: Concierge;
  readonly webhookEndpoints: WebhookEndpoints;
  readonly webhookDeliveries: WebhookDeliveries;
  readonly #transport: Transport;

  constructor(options: PartnerClientOptions) {
    if (!options.apiKey) throw new TypeError('PartnerClient needs an apiKey.');
    if (!URL.canParse(options.baseUrl))
      throw new TypeError("PartnerClient needs a baseUrl: the API's origin, such as https://api.example.com.");
    this.#transport = new Transport({
      apiKey: options.apiKey,
      // The spec's base_url ends in /v1; the paths here carry it: either spelling of the origin works.
      baseUrl: options.baseUrl.replace(/\/+$/, '').replace(/\/v1$/, ''),
      // Called through globalThis: browsers refuse a fetch detached from it ("Illegal invocation").
      fetch: options.fetch ?? ((url, init) => globalThis.fetch(url, init)),
      retry: options.retry ?? {},
      clock: options.clock ?? systemClock,
      random: options.random ?? Math.random,
    });
    this.restaurants = new Restaurants(this.#transport);
    this.items = new Items(this.#transport);
    this.menus = new Menus(this.#transport, options.menuCache ?? new MemoryMenuCache());
    this.assets = new Assets(this.#transport, options.assetRefreshMarginMs ?? 120_000);
    this.concierge = new Concierge(this.#transport);
    this.webhookEndpoints = new WebhookEndpoints(this.#transport);
    this.webhookDeliveries = new WebhookDeliveries(this.#transport);
  }

  /** What the key is: its type, environment, scopes, rate limit and owner (`GET /v1/partner/me`). */
  me(options: RequestOptions = {}): Promise<TKeyMetadata> {
    return this.#transport.data('GET', '/v1/partner/me', options);
  }
}
