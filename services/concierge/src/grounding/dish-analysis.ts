import { allergenToken, allergensFreeByTag, allergensIn, allergensOf, freeOfToken } from './allergens.js';
import { categoriesOf } from './food-categories.js';
import type { MenuEntry } from './menu-index.js';
import { negatedTerms } from './negation.js';
import { readPieces } from './terms.js';

/**
 * A dish's weight for a token, per occurrence of a word: its name outranks its tags and allergens,
 * which outrank its description. A category the dish's words imply (salmon → fish) counts once per
 * field and at most 2 + 1, below any word the dish has itself: "fish" finds a dish that says fish first.
 */
export const WEIGHTS = { name: 12, tags: 8, description: 4, nameCategory: 2, descriptionCategory: 1, impliedAllergen: 2 } as const;

/** What a dish says of allergens: what it declares, what its words show, what its tags or words promise it is free of. */
interface DishAllergens {
  declared: Set<string>;
  implied: Set<string>;
  freeOf: Set<string>;
}

/**
 * The tokens a dish is found by and their weights: the stems and known phrases of its words, the
 * categories they imply, `allergen:x` for each allergen it declares or whose ingredient it names
 * (unless a tag promises it free of that one), and `free:x` for each it is promised free of.
 */
export function analyzeDish(entry: MenuEntry): Map<string, number> {
  const weights = new Map<string, number>();
  const add = (token: string, weight: number) => weights.set(token, (weights.get(token) ?? 0) + weight);
  const allergens: DishAllergens = { declared: new Set(), implied: new Set(), freeOf: new Set() };
  addText(entry.name, WEIGHTS.name, WEIGHTS.nameCategory, add, allergens);
  addText(entry.description ?? '', WEIGHTS.description, WEIGHTS.descriptionCategory, add, allergens);
  for (const tag of entry.dietaryTags) {
    for (const term of readTerms(tag, allergens, { promises: true })) {
      add(term, WEIGHTS.tags);
      for (const allergen of allergensFreeByTag(term)) allergens.freeOf.add(allergen);
    }
  }
  for (const declared of entry.allergens) {
    // Read without negations: "Eggs (free range)" declares eggs, whatever else its words say.
    const terms = readPieces(declared).flatMap((piece) => ('term' in piece ? [piece.term] : []));
    for (const term of terms) add(term, WEIGHTS.tags);
    // An allergen our vocabulary does not know ("garlic") is its own name.
    const named = terms.flatMap(allergensIn);
    for (const allergen of named.length ? named : terms) allergens.declared.add(allergen);
  }
  // A declared allergen wins over a tag that says otherwise: the safe reading of a contradiction.
  for (const allergen of allergens.declared) add(allergenToken(allergen), WEIGHTS.tags);
  for (const allergen of allergens.implied) {
    if (!allergens.declared.has(allergen) && !allergens.freeOf.has(allergen)) add(allergenToken(allergen), WEIGHTS.impliedAllergen);
  }
  for (const allergen of allergens.freeOf) if (!allergens.declared.has(allergen)) add(freeOfToken(allergen), WEIGHTS.tags);
  return weights;
}

/**
 * Whether a dish declares one of these allergens, or names an ingredient of one (walnuts: nuts) without
 * a tag promising it free of it: what may never be offered to a guest who avoids them.
 */
export function containsAnyAllergen(dish: MenuEntry, allergens: readonly string[]): boolean {
  if (!allergens.length) return false;
  const tokens = analyzeDish(dish);
  return allergens.some((allergen) => tokens.has(allergenToken(allergen)));
}

/**
 * A text's terms that no negation governs. Only a dietary tag `promises`: the allergens its negated
 * terms name are absent ("nut-free"). A name or description that says so ("dairy-free on request",
 * "not for a nut allergy") promises nothing: the dish's other words still show what it contains.
 */
function readTerms(text: string, allergens: DishAllergens, { promises }: { promises: boolean }): string[] {
  const pieces = readPieces(text);
  const negated = negatedTerms(pieces);
  const terms: string[] = [];
  pieces.forEach((piece, i) => {
    if (!('term' in piece)) return;
    if (!negated.has(i)) terms.push(piece.term);
    else if (promises) for (const allergen of allergensOf(piece.term)) allergens.freeOf.add(allergen);
  });
  return terms;
}

/** A name or description: its terms (a phrase's words too), and once each, the categories and allergens they imply. */
function addText(text: string, direct: number, category: number, add: (token: string, weight: number) => void, allergens: DishAllergens) {
  const categories = new Set<string>();
  for (const term of readTerms(text, allergens, { promises: false })) {
    add(term, direct);
    const words = term.split(' ');
    if (words.length > 1) for (const word of words) add(word, direct);
    for (const implied of [term, ...categoriesOf(term)]) {
      if (implied !== term) categories.add(implied);
      for (const allergen of allergensOf(implied)) allergens.implied.add(allergen);
    }
  }
  for (const implied of categories) add(implied, category);
}
