import type { MenuEntry } from '../grounding/menu-index.js';

/** A card marker as the prompt asks for it. */
export const MARKER = /\s*\[\[(itm_[A-Za-z0-9]{1,60})\]\]/g;
/** Anything in double brackets: a marker or a malformed attempt at one. */
const BRACKETED = /\[\[([^\]]*)\]\]/g;
const VALID_ID = /^itm_[A-Za-z0-9]{1,60}$/;

/** A figure: thousands grouped by , or . (three digits after), decimals after the last , or . (one or two). */
const FIGURE = String.raw`\d{1,3}(?:[.,]\d{3})+(?:[.,]\d{1,2})?|\d+(?:[.,]\d{1,2})?`;
/**
 * An amount of money: a currency sign or code before the figure, or a sign, code or name after it.
 * "Pound" is left out on purpose: it is a weight as often as money ("a 1 pound T-bone").
 */
const PRICE = new RegExp(
  String.raw`(?:[$€£¥]|\b(?:usd|eur|gbp|chf)\s?)\s?(${FIGURE})|(${FIGURE})\s?(?:[$€£¥]|(?:dollars?|euros?|usd|eur|gbp|chf)\b)`,
  'gi',
);

/**
 * The assistant saying it is a person, or that it is not an AI: the disclosure always holds. English
 * only, like the prompt; in the first person ("please ask a real person on our staff" is advice).
 */
const HUMAN_CLAIM = new RegExp(
  [
    String.raw`\b(?:i\s+am|i['’]m|im)\s+(?:\w+,\s+)?(?:an?\s+|the\s+|your\s+|one\s+of\s+the\s+)?(?:real\s+|actual\s+)?(?:human|person|waiters?|waitress|servers?|chef|member\s+of\s+(?:the\s+)?staff)\b`,
    String.raw`\bthis\s+is\s+\w+,?\s+your\s+(?:waiter|waitress|server|host)\b`,
    String.raw`\bi\s+work\s+here\b`,
    String.raw`\b(?:not|no)\s+(?:an?\s+)?(?:ai\b|a\.i\.|bot\b|robot\b|chatbot\b|computer\s+program\b|language\s+model\b|artificial\s+intelligence\b)`,
  ].join('|'),
  'i',
);

export type WithheldReason = 'unknown_dish' | 'avoided_allergen' | 'draft_dish' | 'unknown_price' | 'human_claim';

/** A sentence judged: why it must not reach the diner, or the dishes its markers cite, by id. */
export type Judgement = { withheld: WithheldReason } | { cited: ReadonlyMap<string, MenuEntry> };

/** What a sentence of the model's may speak of: this turn's menu, as the concierge knows it. */
export interface ReplyFacts {
  /** A published dish of the menu by id (the index), or undefined. */
  findDish(id: string): MenuEntry | undefined;
  /** Whether a dish contains an allergen the guest avoids ("no nuts"): never recommended. */
  avoided(dish: MenuEntry): boolean;
  /** The dishes the turn's prompt gave the model: a sentence citing none may quote only their prices. */
  retrieved: MenuEntry[];
  /** Names of the restaurant's draft dishes: never spoken of. */
  draftNames: string[];
  /** Amounts the house notes state (in cents), which any sentence may repeat. */
  housePrices: number[];
}

/** A figure in cents: the last separator followed by one or two digits is the decimal one. */
function cents(figure: string): number {
  const decimal = /[.,](\d{1,2})$/.exec(figure);
  const whole = (decimal ? figure.slice(0, decimal.index) : figure).replace(/[.,]/g, '');
  return Number(whole) * 100 + (decimal ? Number(decimal[1]!.padEnd(2, '0')) : 0);
}

/** Every amount of money a text states, in cents. */
export function pricesIn(text: string): number[] {
  return [...text.matchAll(PRICE)].map((match) => cents(match[1] ?? match[2]!));
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** The names, as whole words, singular or plural; `g` to take them all out of a text. */
const namesPattern = (names: string[], flags: 'iu' | 'giu') =>
  new RegExp(`(?<![\\p{L}\\p{N}])(?:${names.map(escapeRegExp).join('|')})(?:e?s)?(?![\\p{L}\\p{N}])`, flags);

/** Why a sentence of the model's must not reach the diner, if it must not; else the dishes it cites. */
export class SentenceRules {
  /** Only tested, so no `g`: with it, each test would start where the last match ended (`lastIndex`). */
  private readonly drafts: RegExp | null;
  /** The names of the dishes the turn retrieved, built once: every sentence is read without them. */
  private readonly retrievedNames: RegExp | null;
  /**
   * Cited dishes' name patterns, keyed by their ids in citation order: a set cited again (a later
   * sentence, or the next piece of a long one) reuses its pattern.
   */
  private readonly citedNames = new Map<string, RegExp | null>();
  private readonly pricesWhenNoDishCited: Set<number>;

  constructor(private readonly facts: ReplyFacts) {
    const names = facts.draftNames.filter((name) => name.trim());
    this.drafts = names.length ? namesPattern(names, 'iu') : null;
    const retrieved = facts.retrieved.map((dish) => dish.name).filter((name) => name.trim());
    this.retrievedNames = retrieved.length ? namesPattern(retrieved, 'giu') : null;
    this.pricesWhenNoDishCited = new Set([...facts.retrieved.map((dish) => dish.priceCents), ...facts.housePrices]);
  }

  judge(sentence: string): Judgement {
    const cited = new Map<string, MenuEntry>();
    for (const [, id] of sentence.matchAll(BRACKETED)) {
      const dish = VALID_ID.test(id!) ? this.facts.findDish(id!) : undefined;
      if (!dish) return { withheld: 'unknown_dish' };
      if (this.facts.avoided(dish)) return { withheld: 'avoided_allergen' };
      cited.set(id!, dish);
    }
    if (this.namesDraft(sentence, cited)) return { withheld: 'draft_dish' };
    const allowed = cited.size
      ? new Set([...Array.from(cited.values(), (dish) => dish.priceCents), ...this.facts.housePrices])
      : this.pricesWhenNoDishCited;
    if (pricesIn(sentence).some((price) => !allowed.has(price))) return { withheld: 'unknown_price' };
    if (HUMAN_CLAIM.test(sentence)) return { withheld: 'human_claim' };
    return { cited };
  }

  /** A draft's name, once the names of the published dishes it cites or was given are taken out ("Garden salad" is not the draft "Salad"). */
  private namesDraft(sentence: string, cited: ReadonlyMap<string, MenuEntry>): boolean {
    if (!this.drafts) return false;
    // Markers out too: an id is no name ("itm_salad").
    let rest = sentence.replace(BRACKETED, ' ');
    if (this.retrievedNames) rest = rest.replace(this.retrievedNames, ' ');
    const citedNames = this.citedNamesPattern(cited);
    if (citedNames) rest = rest.replace(citedNames, ' ');
    return this.drafts.test(rest);
  }

  /** The names of the dishes a sentence cites, as one pattern; none if it cites none. */
  private citedNamesPattern(cited: ReadonlyMap<string, MenuEntry>): RegExp | null {
    const key = [...cited.keys()].join(' ');
    if (!this.citedNames.has(key)) {
      const names = [...cited.values()].map((dish) => dish.name).filter((name) => name.trim());
      this.citedNames.set(key, names.length ? namesPattern(names, 'giu') : null);
    }
    return this.citedNames.get(key)!;
  }
}
