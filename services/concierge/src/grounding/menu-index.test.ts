import { describe, expect, it } from 'vitest';
import { type MenuEntry, MenuIndex, tokenize } from './menu-index.js';
import { MenuIndexBuilder } from './menu-index-builder.js';

const build = (entries: MenuEntry[]) => {
  const builder = new MenuIndexBuilder();
  for (const entry of entries) builder.add(entry);
  return new MenuIndex(builder.finish('"v1"'));
};

/** The ranking as first written (score every match, sort them all): what the index must answer. */
function rankedByScoringAll(entries: MenuEntry[], question: string, limit: number): string[] {
  const weightOf = (entry: MenuEntry, token: string) =>
    3 * tokenize(entry.name).filter((t) => t === token).length +
    2 * tokenize([...entry.dietaryTags, ...entry.allergens].join(' ')).filter((t) => t === token).length +
    tokenize(entry.description ?? '').filter((t) => t === token).length;
  const tokens = [...new Set(tokenize(question))];
  const scored = entries
    .map((entry, position) => ({ entry, position, score: tokens.reduce((sum, token) => sum + weightOf(entry, token), 0) }))
    .filter((s) => s.score > 0);
  if (!scored.length) return entries.slice(0, limit).map((e) => e.id);
  return scored
    .sort((a, b) => b.score - a.score || a.position - b.position)
    .slice(0, limit)
    .map((s) => s.entry.id);
}

/** A small deterministic generator, so a failure names a seed that reproduces it. */
function random(seed: number) {
  let state = seed;
  return (n: number) => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state % n;
  };
}

const WORDS = ['salmon', 'tofu', 'basil', 'tomato', 'spicy', 'vegan', 'milk', 'eggs', 'crème', 'brûlée', 'with', 'and', 'a', 'of'];

function randomMenu(seed: number, size: number): MenuEntry[] {
  const next = random(seed);
  const words = (count: number) => Array.from({ length: count }, () => WORDS[next(WORDS.length)]!).join(' ');
  return Array.from({ length: size }, (_, n) => ({
    id: `itm_${seed}_${n}`,
    slug: `dish-${n}`,
    name: `${words(1 + next(3))} ${n}`,
    description: next(4) ? words(next(12)) : null,
    priceCents: 100 + next(3000),
    allergens: next(2) ? [WORDS[6 + next(2)]!] : [],
    dietaryTags: next(3) ? [] : ['vegan', 'spicy'].slice(next(2)),
    thumbnailKey: next(5) ? null : `${n}.png`,
  }));
}

describe('MenuIndex', () => {
  it('ranks exactly as scoring and sorting every match would, ties in menu order', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const menu = randomMenu(seed, 1 + random(seed)(400));
      const index = build(menu);
      const next = random(seed * 7);
      for (let q = 0; q < 25; q++) {
        const question = Array.from({ length: 1 + next(5) }, () => WORDS[next(WORDS.length)]).join(' ') + (next(3) ? '' : ' truffle');
        const limit = 1 + next(10);
        expect(
          index.search(question, limit).map((e) => e.id),
          `seed ${seed}: ${question} (${limit})`,
        ).toEqual(rankedByScoringAll(menu, question, limit));
      }
    }
  });

  it('gives back whole dishes, finds them by id, and offers the first dishes when nothing matches', () => {
    const menu = randomMenu(3, 50);
    const index = build(menu);
    expect(index.size).toBe(50);
    expect(index.etag).toBe('"v1"');
    expect(index.search('nothing here at all', 4)).toEqual(menu.slice(0, 4));
    expect(index.find(menu[17]!.id)).toEqual(menu[17]);
    expect(index.find('itm_missing')).toBeUndefined();
    expect(build([]).search('salmon')).toEqual([]);
    expect(build([]).find('itm_x')).toBeUndefined();
  });

  it('reads only as far as the best dishes are certain when a word is on every dish', () => {
    const menu = Array.from({ length: 20_000 }, (_, n) => ({
      ...randomMenu(1, 1)[0]!,
      id: `itm_${n}`,
      name: `Dish ${n} with ${['tomato', 'basil', 'salmon', 'tofu', 'mushroom'][n % 5]}`,
      description: 'Slow-cooked, served with seasonal greens',
    }));
    const index = build(menu);
    const question = 'Anything with salmon?';
    const fastest = (times: number, run: () => unknown) =>
      Math.min(
        ...Array.from({ length: times }, () => {
          const started = performance.now();
          run();
          return performance.now() - started;
        }),
      );
    expect(index.search(question).map((e) => e.id)).toEqual(rankedByScoringAll(menu, question, 8));
    // Against a pass over every dish's postings (a busy machine slows both alike).
    const scoringAll = fastest(3, () => index.search(question.replace('salmon', 'salmon tomato basil tofu mushroom'), 20_000));
    expect(fastest(20, () => index.search(question))).toBeLessThan(scoringAll / 50);
  });
});
