import type { TItem, TItemListMeta, TTombstone } from '@partner/contracts';
import { isApiError } from './errors.js';
import type { Page } from './pagination.js';

/** `meta` of an item listing (spec 2.5). */
export type ItemListMeta = TItemListMeta;

export type ItemPage = Page<TItem | TTombstone, ItemListMeta>;

/** What one sync pass reports, in the listing's order. */
export type SyncChange =
  /** Your copy can no longer be brought up to date: drop every item you hold; a full listing follows. */
  | { type: 'reset' }
  /** An item created or changed since the last pass (any status: filter it yourself). */
  | { type: 'upsert'; item: TItem }
  /** An item deleted since the last pass. */
  | { type: 'delete'; id: string; tombstone: TTombstone };

/** Where the next pass starts. Persist it after a pass; a cursor is set only while a pass is unfinished. */
export interface SyncState {
  /** The last completed pass's `syncWindowEnd`; null before the first pass (a full listing). */
  updatedAfter: string | null;
  /** The next page of an unfinished pass, bound to `updatedAfter`. */
  cursor: string | null;
}

const isTombstone = (entry: TItem | TTombstone): entry is TTombstone => 'deleted' in entry && entry.deleted === true;

/**
 * Incremental sync of one restaurant's items (spec 2.5, 4.2). Each `for await` over it is one pass:
 * every page from where the last pass ended to a window the API fixes when the pass starts, each
 * change once. The state moves only past what you consumed: break out of a loop, or let it throw,
 * and the next pass starts again at the page you were on.
 */
export class ItemSync implements AsyncIterable<SyncChange> {
  #state: SyncState;

  constructor(
    private readonly fetchPage: (query: { updatedAfter?: string; cursor?: string }) => Promise<ItemPage>,
    state: Partial<SyncState> = {},
  ) {
    this.#state = { updatedAfter: state.updatedAfter ?? null, cursor: state.cursor ?? null };
  }

  get state(): SyncState {
    return { ...this.#state };
  }

  /** Shorthand for `state.updatedAfter`: what to store once a pass is done. */
  get updatedAfter(): string | null {
    return this.#state.updatedAfter;
  }

  async *[Symbol.asyncIterator](): AsyncIterator<SyncChange> {
    // A cursor the API handed out in this very pass and then refused is its fault, not a stored one's.
    let cursorIssuedThisPass = false;
    for (;;) {
      const { updatedAfter, cursor } = this.#state;
      // A cursor is bound to the filters that issued it: it travels with the same updatedAfter.
      let page: ItemPage;
      try {
        page = await this.fetchPage({ updatedAfter: updatedAfter ?? undefined, cursor: cursor ?? undefined });
      } catch (err) {
        // A stored cursor the API no longer takes (its signing key rotated, or it was stored beside
        // another updatedAfter): the pass starts over from updatedAfter. What it repeats are changes
        // already applied, each as it is now.
        if (cursor === null || cursorIssuedThisPass || !isApiError(err, 'invalid_cursor', 'cursor_filter_mismatch')) throw err;
        this.#state = { updatedAfter, cursor: null };
        continue;
      }
      if (page.meta.fullResyncRequired && updatedAfter !== null) {
        // Older than the tombstone retention: deletions may be missing. The state moves only once the
        // caller has taken the reset, so a loop left at this point sees the reset again next pass.
        yield { type: 'reset' };
        this.#state = { updatedAfter: null, cursor: null };
        continue;
      }
      for (const entry of page.data) {
        yield isTombstone(entry) ? { type: 'delete', id: entry.id, tombstone: entry } : { type: 'upsert', item: entry };
      }
      if (page.meta.nextCursor) {
        this.#state = { updatedAfter, cursor: page.meta.nextCursor };
        cursorIssuedThisPass = true;
        continue;
      }
      // Feeding syncWindowEnd back as updatedAfter is gapless and overlap-free (spec 2.5).
      this.#state = { updatedAfter: page.meta.syncWindowEnd, cursor: null };
      return;
    }
  }
}
