import { describe, expect, it } from 'vitest';
import type { MenuEntry } from '../grounding/menu-index.js';
import { ReplyGuard } from './reply-guard.js';
import { pricesIn } from './sentence-rules.js';

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
    draftNames: ['Truffle risotto', 'Salad'],
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

  it('withholds a sentence naming a draft, in any case, singular or plural, with or without a marker', () => {
    const guard = guarded();
    const text = streamed(
      ['Our new truffle risotto is coming soon. ', 'Truffle risottos are great. ', 'The Tomato soup [[itm_soup]] is lovely.'],
      guard,
    );
    expect(text).toBe('The Tomato soup is lovely.');
    expect(guard.withheld).toEqual(['draft_dish', 'draft_dish']);
  });

  it("does not mistake a published dish's name for a draft's inside it", () => {
    const salad = dish('itm_salad', 'Garden salad', 1100);
    menu.set(salad.id, salad);
    const guard = guarded({ retrieved: [tiramisu, soup] });
    expect(streamed(['The Garden salad [[itm_salad]] is fresh. ', 'A salad to start?'], guard)).toBe('The Garden salad is fresh. ');
    expect(guard.withheld).toEqual(['draft_dish']);
  });

  it('withholds a sentence with a malformed marker, brackets and all', () => {
    const guard = guarded();
    expect(streamed(['Try our Unicorn cake [[itm_unicorn-cake]]. ', 'Or [[Tiramisu]]. ', 'Enjoy.'], guard)).toBe('Enjoy.');
    expect(guard.withheld).toEqual(['unknown_dish', 'unknown_dish']);
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

  it.each([
    "I'm Marco, a real human waiter here.",
    'I’m your waiter tonight.',
    'I am not an AI.',
    'I am not an A.I., honestly.',
    "I'm no AI, promise.",
    'This is Marco, your waiter.',
    "I'm one of the waiters here.",
    'I work here, so trust me.',
    "I'm not a computer program.",
  ])('withholds a claim to be a person or not an AI: %s', (claim) => {
    const guard = guarded();
    expect(streamed(['Sure! ', `${claim} `, 'The Tiramisu [[itm_tira]] is great.'], guard)).toBe('Sure! The Tiramisu is great.');
    expect(guard.withheld).toEqual(['human_claim']);
  });

  it.each([
    'Please check with a real person on our staff.',
    'The pasta is made by hand, not a machine.',
    'I am happy to help.',
    'I am personally a fan of the Tiramisu.',
  ])('lets advice and ordinary sentences through: %s', (sentence) => {
    expect(streamed([sentence])).toBe(sentence);
  });

  it('says the fallback when nothing the model wrote passed, even with white space left over', () => {
    expect(streamed(['Unicorn cake [[itm_madeup]] for sure'])).toBe('(nothing)');
    expect(streamed(['Unicorn [[itm_x]]!  ', '  '])).toBe('(nothing)');
    expect(streamed(['Hello there'])).toBe('Hello there');
  });

  it('lets a long run without a sentence end go in pieces, judging each with what follows it', () => {
    const guard = guarded();
    const words = Array.from({ length: 120 }, (_, i) => `word${i} `).join('');
    const first = guard.push(`${words}Tiramisu [[itm_tira]] and more`);
    expect(first.length).toBeGreaterThan(0);
    expect(first + guard.flush(null)).toBe(`${words}Tiramisu and more`);
    expect(guard.cited).toEqual([tiramisu]);
  });

  it('withholds a claim split across the place a long run is cut, and the rest of its sentence', () => {
    const filler = Array.from({ length: 78 }, (_, i) => `w${i % 10}`).join(' ');
    for (let shift = 0; shift < 30; shift++) {
      const guard = guarded();
      const text = streamed(
        [`${filler.slice(shift)} I`, ' am', ' a', ' human', ' waiter', ' and more words follow here. ', 'Enjoy.'],
        guard,
      );
      expect(text).not.toMatch(/human|waiter/);
      expect(text.endsWith('Enjoy.')).toBe(true);
    }
  });
});

describe('pricesIn', () => {
  it('reads amounts with a sign before or after, or a currency named after them, in cents', () => {
    expect(pricesIn('$9, 12.50 €, €7,5, 3 dollars, 20 EUR, £4.99 and 2 guests')).toEqual([900, 1250, 750, 300, 2000, 499]);
    expect(pricesIn('USD 45, $1,200, €1.250,50, CHF 12')).toEqual([4500, 120000, 125050, 1200]);
    // A pound is a weight as often as money: only the sign counts.
    expect(pricesIn('a 1 pound T-bone, 2 pounds of mussels')).toEqual([]);
  });
});
