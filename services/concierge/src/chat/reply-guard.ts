import type { MenuEntry } from '../grounding/menu-index.js';

const MARKER = /\s*\[\[(itm_[A-Za-z0-9]{1,60})\]\]/g;
/** A sentence ends at . ! ? or … before white space, or at a line break. */
const SENTENCE_END = /[.!?…]+["')\]]*\s+|\n+/;
/** Past this many characters without a sentence end, the text so far is judged as one. */
const LONGEST_SENTENCE = 400;
/** An amount of money: a currency sign before or after the figure, or its name after it. */
const PRICE = /(?:[$€£¥]\s?(\d+(?:[.,]\d{1,2})?))|(?:(\d+(?:[.,]\d{1,2})?)\s?(?:[$€£¥]|dollars?\b|euros?\b|pounds?\b|usd\b|eur\b|gbp\b))/gi;
/** The assistant saying it is a person, or that it is not an AI: the disclosure always holds. */
const HUMAN_CLAIM =
  /\b(?:i\s+am|i'm|im)\s+(?:\w+,\s+)?(?:an?\s+|the\s+|your\s+)?(?:real\s+|actual\s+)?(?:human|person|waiter|waitress|server|chef|member\s+of\s+(?:the\s+)?staff)\b|\b(?:real|actual)\s+(?:human|person)\b|\bnot\s+(?:an?\s+)?(?:ai|a\.i\.|bot|robot|chatbot|machine|language\s+model|artificial\s+intelligence|assistant)\b/i;

export type WithheldReason = 'unknown_dish' | 'avoided_allergen' | 'unpublished_dish' | 'unknown_price' | 'human_claim';

/** What a sentence of the model's may speak of: this turn's menu, as the concierge knows it. */
export interface ReplyFacts {
  /** A published dish of the menu by id (the index), or undefined. */
  findDish(id: string): MenuEntry | undefined;
  /** Whether a dish contains an allergen the guest avoids ("no nuts"): never recommended. */
  avoided(dish: MenuEntry): boolean;
  /** The dishes the turn's prompt gave the model: a sentence citing none may quote only their prices. */
  retrieved: MenuEntry[];
  /** Names of the restaurant's dishes that are not on the menu (drafts, archived): never spoken of. */
  unpublishedNames: string[];
  /** Amounts the house notes state (in cents), which any sentence may repeat. */
  housePrices: number[];
}

const cents = (figure: string) => Math.round(Number(figure.replace(',', '.')) * 100);

/** Every amount of money a text states, in cents. */
export function pricesIn(text: string): number[] {
  return [...text.matchAll(PRICE)].map((match) => cents(match[1] ?? match[2]!));
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Holds the model's streamed text back a sentence at a time and lets through only the sentences that
 * keep to the menu: a sentence citing a dish that is not on it (made up, a draft, another restaurant's)
 * or one with an allergen the guest avoids, naming an unpublished dish, stating a price no dish it speaks of has, or claiming to be a person is
 * withheld whole. The `[[itm_…]]` markers are taken out of what passes and collected for cards.
 * The prompt asks for all this; this makes sure of it, at the cost of the first words arriving a
 * sentence later (docs/decisions.md).
 */
export class ReplyGuard {
  private pending = '';
  private passed = false;
  readonly cited: MenuEntry[] = [];
  readonly withheld: WithheldReason[] = [];
  private readonly unpublished: RegExp | null;
  private readonly retrievedPrices: Set<number>;

  constructor(private readonly facts: ReplyFacts) {
    const published = new Set(facts.retrieved.map((dish) => dish.name.toLowerCase()));
    const names = facts.unpublishedNames.filter((name) => name.trim() && !published.has(name.toLowerCase()));
    this.unpublished = names.length
      ? new RegExp(`(?<![\\p{L}\\p{N}])(?:${names.map(escapeRegExp).join('|')})(?![\\p{L}\\p{N}])`, 'iu')
      : null;
    this.retrievedPrices = new Set([...facts.retrieved.map((dish) => dish.priceCents), ...facts.housePrices]);
  }

  /** The text of every complete sentence in `chunk` (and before it) that keeps to the menu. */
  push(chunk: string): string {
    this.pending += chunk;
    let out = '';
    for (;;) {
      const end = SENTENCE_END.exec(this.pending);
      const cut = end
        ? end.index + end[0].length
        : this.pending.length > LONGEST_SENTENCE
          ? this.pending.lastIndexOf(' ') + 1 || this.pending.length
          : 0;
      if (cut <= 0) return out;
      out += this.judge(this.pending.slice(0, cut));
      this.pending = this.pending.slice(cut);
    }
  }

  /** The last, unfinished sentence, judged like the others; `fallback` if nothing at all passed. */
  flush(fallback: string | null): string {
    const rest = this.judge(this.pending);
    this.pending = '';
    return rest || (this.passed || !fallback ? '' : fallback);
  }

  private judge(sentence: string): string {
    if (!sentence) return '';
    const reason = this.reasonToWithhold(sentence);
    if (reason) {
      this.withheld.push(reason);
      return '';
    }
    const visible = sentence.replace(MARKER, (_match, id: string) => {
      if (!this.cited.some((dish) => dish.id === id)) this.cited.push(this.facts.findDish(id)!);
      return '';
    });
    this.passed ||= visible.trim() !== '';
    return visible;
  }

  private reasonToWithhold(sentence: string): WithheldReason | null {
    const dishes: MenuEntry[] = [];
    for (const [, id] of sentence.matchAll(MARKER)) {
      const dish = this.cited.find((cited) => cited.id === id) ?? this.facts.findDish(id!);
      if (!dish) return 'unknown_dish';
      if (this.facts.avoided(dish)) return 'avoided_allergen';
      dishes.push(dish);
    }
    if (this.unpublished?.test(sentence)) return 'unpublished_dish';
    const allowed = dishes.length ? new Set([...dishes.map((dish) => dish.priceCents), ...this.facts.housePrices]) : this.retrievedPrices;
    if (pricesIn(sentence).some((price) => !allowed.has(price))) return 'unknown_price';
    if (HUMAN_CLAIM.test(sentence)) return 'human_claim';
    return null;
  }
}
