import { Counter } from 'prom-client';
import type { ServiceMetrics } from '@partner/http';

/**
 * What only the catalog knows, beside every service's request metrics: how often a built menu is
 * served from memory (its hit ratio is hits over all lookups), the sync pages it serves, full or
 * incremental, with their items, and how often a later page was read ahead here.
 */
export class CatalogMetrics {
  private readonly menuLookups: Counter<'result'>;
  private readonly syncPages: Counter<'kind'>;
  private readonly syncItems: Counter<'kind'>;
  private readonly prefetchLookups: Counter<'result'>;

  constructor(metrics: ServiceMetrics) {
    const registers = [metrics.registry];
    this.menuLookups = new Counter({
      name: 'catalog_menu_cache_lookups_total',
      help: 'Menu answers looked up in the built-menu cache: hit (served from memory) or miss (built, or joined to a build).',
      labelNames: ['result'],
      registers,
    });
    this.syncPages = new Counter({
      name: 'catalog_sync_pages_total',
      help: 'Item listing pages served: full (no updatedAfter) or incremental.',
      labelNames: ['kind'],
      registers,
    });
    this.syncItems = new Counter({
      name: 'catalog_sync_items_total',
      help: 'Items (and tombstones) in the listing pages served.',
      labelNames: ['kind'],
      registers,
    });
    this.prefetchLookups = new Counter({
      name: 'catalog_sync_prefetch_lookups_total',
      help: 'Later listing pages (with a cursor) looked up among the pages read ahead: hit (read ahead by this replica; read again if that read failed) or miss (read on request).',
      labelNames: ['result'],
      registers,
    });
  }

  /** For `MenuCache`'s `onLookup`. */
  readonly noteMenuLookup = (hit: boolean): void => {
    this.menuLookups.inc({ result: hit ? 'hit' : 'miss' });
  };

  /** For `PagePrefetch`'s `onTake`. */
  readonly notePrefetchLookup = (hit: boolean): void => {
    this.prefetchLookups.inc({ result: hit ? 'hit' : 'miss' });
  };

  notePage(incremental: boolean, items: number): void {
    const kind = incremental ? 'incremental' : 'full';
    this.syncPages.inc({ kind });
    this.syncItems.inc({ kind }, items);
  }
}
