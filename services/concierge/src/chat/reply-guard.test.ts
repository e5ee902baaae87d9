import { describe, expect, it } from 'vitest';
import type { MenuEntry } from '../grounding/menu-index.js';
import { pricesIn, ReplyGuard } from './reply-guard.js';

const dish = (id: string, name: string, priceCents: number): MenuEntry => ({
  id,
  slug: name.toLowerCase(),
  name,
  description: null,
  priceCents,
  allergens: [],
  dietaryTags: [],
  thumbnailKey: null,
});
const tiramisu = dish('itm_tira', 'Tiramisu', 900);
const soup = dish('itm_soup', 'Tomato soup', 700);
const menu = new Map([tiramisu, soup].map((entry) => [entry.id, entry]));

const guarded = (overrides: Partial<ConstructorParameters<typeof ReplyGuard>[0]> = {}) =>
  new ReplyGuard({
    findDish: (id) => menu.get(id),
    avoided: () => false,
    retrieved: [tiramisu, soup],
    unpublishedNames: ['Truffle risotto'],
    housePrices: [1500],
    ...overrides,
  });

/** What the client sees of a reply streamed in these chunks. */
function streamed(chunks: string[], guard = guarded()): string {
  return chunks.map((chunk) => guard.push(chunk)).join('') + guard.flush('(nothing)');
}

describe('ReplyGuard', () => {
  it('lets sentences about the menu through, a sentence at a time, without their markers', () => {
    const guard = guarded();
    expect(guard.push('Try the Tiramisu [[itm_')).toBe('');
    expect(guard.push('tira]] for €9. It is ')).toBe('Try the Tiramisu for €9. ');
    expect(guard.push('rich.')).toBe('');
    expect(guard.flush('(nothing)')).toBe('It is rich.');
    expect(guard.cited).toEqual([tiramisu]);
    expect(guard.withheld).toEqual([]);
  });

  it('withholds a sentence that cites a dish the menu does not have, and keeps the rest', () => {
    const guard = guarded();
    expect(streamed(['Try the Tiramisu [[itm_tira]]. ', 'Or our Unicorn cake [[itm_madeup]]! ', 'Enjoy.'], guard)).toBe(
      'Try the Tiramisu. Enjoy.',
    );
    expect(guard.cited).toEqual([tiramisu]);
    expect(guard.withheld).toEqual(['unknown_dish']);
  });

  it('withholds a sentence recommending a dish with an allergen the guest avoids', () => {
    const guard = guarded({ avoided: (dish) => dish.id === tiramisu.id });
    expect(streamed(['The Tiramisu [[itm_tira]] has milk. ', 'The Tomato soup [[itm_soup]] has none.'], guard)).toBe(
      'The Tomato soup has none.',
    );
    expect(guard.cited).toEqual([soup]);
    expect(guard.withheld).toEqual(['avoided_allergen']);
  });

  it('withholds a sentence naming an unpublished dish, in any case, with or without a marker', () => {
    const guard = guarded();
    expect(streamed(['Our new truffle risotto is coming soon. ', 'The Tomato soup [[itm_soup]] is lovely.'], guard)).toBe(
      'The Tomato soup is lovely.',
    );
    expect(guard.withheld).toEqual(['unpublished_dish']);
    // A word that only contains the name is not the name.
    expect(streamed(['Truffle risottos are not on the menu today.'], guarded({ unpublishedNames: ['Truffle risotto'] }))).toBe(
      'Truffle risottos are not on the menu today.',
    );
  });

  it('withholds a price no dish it speaks of has; the house notes may be quoted', () => {
    const guard = guarded();
    const text = streamed(
      ['The Tiramisu [[itm_tira]] is $12.50. ', 'The soup is 7 euros. ', 'Corkage is €15. ', 'Lobster for 45 dollars.'],
      guard,
    );
    expect(text).toBe('The soup is 7 euros. Corkage is €15. ');
    expect(guard.withheld).toEqual(['unknown_price', 'unknown_price']);
  });

  it('withholds a claim to be a person or not an AI', () => {
    const guard = guarded();
    const text = streamed(
      ["Sure! I'm Marco, a real human waiter here. ", 'I am not an AI. ', 'The Tiramisu [[itm_tira]] is great.'],
      guard,
    );
    expect(text).toBe('Sure! The Tiramisu is great.');
    expect(guard.withheld).toEqual(['human_claim', 'human_claim']);
  });

  it('says the fallback when nothing the model wrote passed, and judges an unfinished last sentence', () => {
    expect(streamed(['Unicorn cake [[itm_madeup]] for sure'])).toBe('(nothing)');
    expect(streamed(['Hello there'])).toBe('Hello there');
  });

  it('judges a long run of text without a sentence end in pieces, never splitting a marker', () => {
    const guard = guarded();
    const words = Array.from({ length: 120 }, (_, i) => `word${i} `).join('');
    const first = guard.push(`${words}Tiramisu [[itm_tira]] and more`);
    expect(first.length).toBeGreaterThan(0);
    expect(first + guard.flush(null)).toBe(`${words}Tiramisu and more`);
    expect(guard.cited).toEqual([tiramisu]);
  });
});

describe('pricesIn', () => {
  it('reads amounts with a sign before or after, or a currency named after them, in cents', () => {
    expect(pricesIn('$9, 12.50 €, €7,5, 3 dollars, 20 EUR, £4.99 and 2 guests')).toEqual([900, 1250, 750, 300, 2000, 499]);
  });
});
