import { allergenToken, freeOfToken } from './allergens.js';
import { analyzeQuestion, type QuestionTerm } from './question-analysis.js';
import { findInStringTable } from './string-table.js';
import { TopK } from './top-k.js';

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

type EntryTuple = [string, string, string, string | null, number, string[], string[], string | null];

export const encodeEntry = (e: MenuEntry): string =>
  JSON.stringify([e.id, e.slug, e.name, e.description, e.priceCents, e.allergens, e.dietaryTags, e.thumbnailKey] satisfies EntryTuple);

/**
 * A restaurant's published dishes and their inverted index, as typed arrays: built in a worker thread
 * and handed over without a copy (docs/decisions.md). Tokens, dish ids and dish JSON are UTF-8 bytes
 * cut by offset arrays (`x[i]` spans `offsets[i]` to `offsets[i + 1]`).
 */
export interface MenuIndexData {
  /** The menu's version the dishes were read at. */
  etag: string;
  /** Dishes in menu order (name, then id), each one JSON tuple (`encodeEntry`). */
  entryBytes: Uint8Array;
  entryOffsets: Uint32Array;
  /** Dish id to position (`string-table.ts`). */
  idSlots: Int32Array;
  /** The vocabulary (ASCII: `analyzeDish`'s tokens) and its table. */
  tokenBytes: Uint8Array;
  tokenOffsets: Uint32Array;
  tokenSlots: Int32Array;
  /** Each token's postings, highest weight first, then in menu order. */
  postingOffsets: Uint32Array;
  postingPositions: Int32Array;
  postingWeights: Uint32Array;
  /** Each dish's tokens and their weights (the same pairs, by dish), to score a dish in one pass. */
  itemOffsets: Uint32Array;
  itemTokens: Int32Array;
  itemWeights: Uint32Array;
}

/** What a question retrieves. */
export interface Retrieval {
  /** The dishes for the prompt, best first; none that contains an allergen the question avoids. */
  dishes: MenuEntry[];
  /** The allergens the question asks to avoid (`analyzeQuestion`): no dish that contains one may be offered. */
  excludedAllergens: string[];
  /**
   * Dishes the question asks for that contain an allergen it avoids ("is the tiramisu ok with a milk
   * allergy?"), at most 3: their declared allergens can be told, they are never offered.
   */
  avoided: MenuEntry[];
}

const decoder = new TextDecoder();
const NO_TERMS = new Set<number>();
const MOST_AVOIDED = 3;

/** A posting list being read, for one token of the question. */
interface Cursor {
  next: number;
  end: number;
}

/**
 * Retrieval over a restaurant's published dishes. A question costs its tokens' lookups and a read of
 * their posting lists only as far as the best `limit` dishes are certain; only those dishes are decoded.
 */
export class MenuIndex {
  readonly etag: string;
  readonly size: number;
  /** What the index holds in memory (its arrays): the cache's measure. */
  readonly bytes: number;

  constructor(private readonly data: MenuIndexData) {
    this.etag = data.etag;
    this.size = data.entryOffsets.length - 1;
    this.bytes = Object.values(data).reduce((sum: number, value) => sum + (ArrayBuffer.isView(value) ? value.byteLength : 0), 0);
  }

  /**
   * The best `limit` dishes for a question: the highest sum of the weights of the tokens it asks for,
   * the earlier dish first on a tie, leaving out every dish with a token it asks to avoid. A question
   * that asks for nothing in particular ("what do you recommend?") gets the dishes promised free of
   * the allergens it avoids, then the first dishes of the menu; one that asks only for what the menu
   * lacks ("sushi?") gets none, rather than dishes it did not ask for.
   */
  search(question: string, limit = 8): Retrieval {
    const { wanted, excludedAllergens, excludedTerms } = analyzeQuestion(question);
    const terms = new Set(wanted.flatMap((term) => this.tokenIds(term)));
    const allergenIds = new Set(excludedAllergens.flatMap((allergen) => this.tokenIds({ token: allergenToken(allergen), words: [] })));
    const excluded = new Set([...allergenIds, ...excludedTerms.flatMap((term) => this.tokenIds(term))]);
    let positions: number[];
    let avoided: number[] = [];
    if (terms.size) {
      positions = this.ranked(terms, excluded, limit);
      if (allergenIds.size)
        avoided = this.ranked(terms, NO_TERMS, limit).filter((position) => this.score(position, NO_TERMS, allergenIds) < 0);
    } else if (wanted.length) positions = [];
    else {
      const promisedFree = new Set(excludedAllergens.flatMap((allergen) => this.tokenIds({ token: freeOfToken(allergen), words: [] })));
      positions = this.withFirstDishes(this.ranked(promisedFree, excluded, limit), excluded, limit);
    }
    const entries = (chosen: number[]) => chosen.map((position) => this.entry(position));
    return { dishes: entries(positions), excludedAllergens, avoided: entries(avoided.slice(0, MOST_AVOIDED)) };
  }

  /** The dish with this id, if the menu has it. */
  find(id: string): MenuEntry | undefined {
    const position = findInStringTable(this.data.idSlots, id, (candidate) => this.entry(candidate).id === id);
    return position < 0 ? undefined : this.entry(position);
  }

  /** The best dishes for these tokens, by Fagin's threshold algorithm over their posting lists. */
  private ranked(terms: Set<number>, excluded: Set<number>, limit: number): number[] {
    const { postingOffsets, postingPositions } = this.data;
    const lists: Cursor[] = [...terms].map((id) => ({ next: postingOffsets[id]!, end: postingOffsets[id + 1]! }));
    const top = new TopK(limit);
    const seen = new Set<number>();
    while (lists.length && !this.settled(lists, top)) {
      for (const list of lists) {
        if (list.next === list.end) continue;
        const position = postingPositions[list.next++]!;
        if (seen.has(position)) continue;
        seen.add(position);
        const score = this.score(position, terms, excluded);
        if (score > 0) top.offer(position, score);
      }
    }
    return top.positions;
  }

  /** `chosen`, then the menu's first dishes that are neither chosen nor excluded, up to `limit`. */
  private withFirstDishes(chosen: number[], excluded: Set<number>, limit: number): number[] {
    const positions = new Set(chosen);
    for (let position = 0; positions.size < limit && position < this.size; position++) {
      if (!positions.has(position) && this.score(position, NO_TERMS, excluded) === 0) positions.add(position);
    }
    return [...positions];
  }

  /**
   * Whether the best dishes are known (Fagin's threshold algorithm). Every list is read best weight
   * first, so a dish not yet seen scores at most the sum of the weights under the cursors; it could
   * only tie with that sum by sitting at those weights in every list, hence after every cursor's dish.
   */
  private settled(lists: Cursor[], top: TopK): boolean {
    const { postingPositions, postingWeights } = this.data;
    let bound = 0;
    let last = -1;
    for (const { next, end } of lists) {
      if (next === end) continue;
      bound += postingWeights[next]!;
      last = Math.max(last, postingPositions[next]!);
    }
    if (bound === 0) return true;
    if (!top.full) return false;
    const worst = top.worst;
    return worst.score > bound || (worst.score === bound && worst.position < last);
  }

  /** The dish's weights for `terms`, summed; -1 when it has an `excluded` token. */
  private score(position: number, terms: Set<number>, excluded: Set<number>): number {
    const { itemOffsets, itemTokens, itemWeights } = this.data;
    let score = 0;
    for (let i = itemOffsets[position]!; i < itemOffsets[position + 1]!; i++) {
      if (excluded.has(itemTokens[i]!)) return -1;
      if (terms.has(itemTokens[i]!)) score += itemWeights[i]!;
    }
    return score;
  }

  /** The ids of a question term's token, or when the menu lacks it, of its words it has. */
  private tokenIds(term: QuestionTerm): number[] {
    const id = this.tokenId(term.token);
    if (id >= 0) return [id];
    return term.words.map((word) => this.tokenId(word)).filter((wordId) => wordId >= 0);
  }

  private tokenId(token: string): number {
    const { tokenBytes, tokenOffsets, tokenSlots } = this.data;
    return findInStringTable(tokenSlots, token, (id) => {
      const start = tokenOffsets[id]!;
      if (tokenOffsets[id + 1]! - start !== token.length) return false;
      for (let i = 0; i < token.length; i++) if (tokenBytes[start + i] !== token.charCodeAt(i)) return false;
      return true;
    });
  }

  private entry(position: number): MenuEntry {
    const { entryBytes, entryOffsets } = this.data;
    const json = decoder.decode(entryBytes.subarray(entryOffsets[position], entryOffsets[position + 1]));
    const [id, slug, name, description, priceCents, allergens, dietaryTags, thumbnailKey] = JSON.parse(json) as EntryTuple;
    return { id, slug, name, description, priceCents, allergens, dietaryTags, thumbnailKey };
  }
}
