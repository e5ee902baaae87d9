import { LRUCache } from 'lru-cache';
import { type Executor, listPublishedItems, menuEtag } from '@partner/db';

export interface MenuEntry {
  id: string;
  slug: string;
  name: string;
  description: string | null;
  priceCents: number;
  allergens: string[];
  dietaryTags: string[];
  /** Storage key of the ready model's thumbnail, if any. */
  thumbnailKey: string | null;
}

const WEIGHTS = { name: 3, tags: 2, description: 1 } as const;

export function tokenize(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((token) => token.length > 1);
}

/**
 * Retrieval over a restaurant's published dishes: an inverted index of weighted tokens, built once per
 * menu version, so a question costs a few map lookups however large the menu.
 */
export class MenuIndex {
  private readonly postings = new Map<string, Map<number, number>>();

  constructor(readonly entries: MenuEntry[]) {
    entries.forEach((entry, position) => {
      const add = (text: string | null, weight: number) => {
        for (const token of tokenize(text ?? '')) {
          const posting = this.postings.get(token) ?? new Map<number, number>();
          posting.set(position, (posting.get(position) ?? 0) + weight);
          this.postings.set(token, posting);
        }
      };
      add(entry.name, WEIGHTS.name);
      add([...entry.dietaryTags, ...entry.allergens].join(' '), WEIGHTS.tags);
      add(entry.description, WEIGHTS.description);
    });
  }

  /** The best `limit` dishes for a question; the first dishes of the menu when nothing matches. */
  search(question: string, limit = 8): MenuEntry[] {
    const scores = new Map<number, number>();
    for (const token of new Set(tokenize(question))) {
      for (const [position, weight] of this.postings.get(token) ?? []) scores.set(position, (scores.get(position) ?? 0) + weight);
    }
    if (!scores.size) return this.entries.slice(0, limit);
    return [...scores]
      .sort((a, b) => b[1] - a[1] || a[0] - b[0])
      .slice(0, limit)
      .map(([position]) => this.entries[position]!);
  }
}

/** One index per restaurant (the most recently asked `maxRestaurants`), rebuilt when the menu's ETag moves. */
export class MenuIndexCache {
  private readonly cached: LRUCache<string, { etag: string; index: MenuIndex }>;

  constructor(maxRestaurants = 1_000) {
    this.cached = new LRUCache({ max: maxRestaurants });
  }

  async get(db: Executor, restaurantId: string): Promise<MenuIndex> {
    const { etag } = await menuEtag(db, restaurantId);
    const hit = this.cached.get(restaurantId);
    if (hit?.etag === etag) return hit.index;
    const rows = await listPublishedItems(db, restaurantId);
    const index = new MenuIndex(
      rows.map((row) => ({
        id: row.id,
        slug: row.slug,
        name: row.name,
        description: row.description,
        priceCents: row.price_cents,
        allergens: row.allergens,
        dietaryTags: row.dietary_tags,
        thumbnailKey: row.model_status === 'ready' ? row.model_thumbnail_key : null,
      })),
    );
    this.cached.set(restaurantId, { etag, index });
    return index;
  }
}
