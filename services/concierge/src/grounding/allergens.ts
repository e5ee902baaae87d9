import { ALLERGEN_KINDS, ALLERGEN_NAMES, CONDITIONS, FREE_OF_BY_TAG } from './allergen-vocabulary.js';
import { categoriesOf } from './food-categories.js';
import { stemPhrase } from './terms.js';

type Vocabulary = Readonly<Record<string, readonly string[]>>;
const pairsOf = (vocabulary: Vocabulary) =>
  Object.entries(vocabulary).flatMap(([key, values]) => values.map((value) => [key, value] as const));

/** Stemmed words (or phrases) to the allergens they name. */
function byTerm(pairs: (readonly [word: string, allergen: string])[]): Map<string, readonly string[]> {
  const map = new Map<string, readonly string[]>();
  for (const [word, allergen] of pairs) {
    const term = stemPhrase(word);
    map.set(term, [...new Set([...(map.get(term) ?? []), allergen])]);
  }
  return map;
}

const NAMED = byTerm(pairsOf(ALLERGEN_NAMES).map(([allergen, word]) => [word, allergen] as const));
const KINDS = byTerm(pairsOf(ALLERGEN_KINDS).map(([allergen, word]) => [word, allergen] as const));
const BY_CONDITION = byTerm(pairsOf(CONDITIONS));
const FREE_BY_TAG = byTerm(pairsOf(FREE_OF_BY_TAG));

/** The allergens a term names as a whole: "dairy" → milk, "shellfish" → crustaceans and molluscs. */
export const allergensNamedBy = (term: string): readonly string[] => NAMED.get(term) ?? [];

/** The allergens a term names or is a kind of: "walnut" → nuts too. */
export const allergensOf = (term: string): readonly string[] => NAMED.get(term) ?? KINDS.get(term) ?? [];

/** The allergens a condition avoids: "coeliac" → gluten. */
export const allergensAvoidedBy = (term: string): readonly string[] => BY_CONDITION.get(term) ?? [];

/** The allergens a dietary tag's term promises the dish is free of: "vegan" → milk, eggs, … */
export const allergensFreeByTag = (term: string): readonly string[] => FREE_BY_TAG.get(term) ?? [];

/**
 * Index tokens for allergens: `allergen:milk` on a dish that contains milk, `free:milk` on one that
 * promises it does not. A ':' never comes out of `tokenize`, so no word of a question can be one.
 */
export const allergenToken = (allergen: string): string => `allergen:${allergen}`;
export const freeOfToken = (allergen: string): string => `free:${allergen}`;

/** The allergens a term names, is a kind of, or belongs to by category: "pine nuts" → nuts. */
export const allergensIn = (term: string): string[] => [...new Set([term, ...categoriesOf(term)].flatMap(allergensOf))];
