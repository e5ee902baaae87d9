import { allergensAvoidedBy, allergensNamedBy, allergensOf, allergenToken } from './allergens.js';
import { negatedTerms } from './negation.js';
import { readPieces } from './terms.js';

/**
 * A term of a question as the index looks it up: its token, or when the index lacks a phrase
 * ("goat cheese"), the phrase's words.
 */
export interface QuestionTerm {
  token: string;
  words: readonly string[];
}

export interface QuestionAnalysis {
  /** What the question asks for: each term once, and `allergen:x` for an allergen it names ("which dishes contain eggs?"). */
  wanted: QuestionTerm[];
  /** The allergens it asks to avoid ("no nuts", "I'm allergic to milk", "dairy free"), sorted. */
  excludedAllergens: string[];
  /** The other things it asks to avoid ("no meat", "nothing fried"). */
  excludedTerms: QuestionTerm[];
}

const termOf = (token: string): QuestionTerm => ({ token, words: token.includes(' ') ? token.split(' ') : [] });

/** What a diner's question asks for and what it asks to avoid. */
export function analyzeQuestion(question: string): QuestionAnalysis {
  const pieces = readPieces(question);
  const negated = negatedTerms(pieces);
  const wanted = new Map<string, QuestionTerm>();
  const excludedAllergens = new Set<string>();
  const excludedTerms = new Map<string, QuestionTerm>();
  pieces.forEach((piece, i) => {
    if (!('term' in piece)) return;
    const { term } = piece;
    const avoided = negated.has(i) ? allergensOf(term) : allergensAvoidedBy(term);
    if (avoided.length) {
      for (const allergen of avoided) excludedAllergens.add(allergen);
    } else if (negated.has(i)) {
      excludedTerms.set(term, termOf(term));
    } else {
      wanted.set(term, termOf(term));
      // Asking for "nuts" asks for every dish that declares them, whatever its words; asking for "walnuts" does not.
      for (const allergen of allergensNamedBy(term)) wanted.set(allergenToken(allergen), termOf(allergenToken(allergen)));
    }
  });
  return { wanted: [...wanted.values()], excludedAllergens: [...excludedAllergens].sort(), excludedTerms: [...excludedTerms.values()] };
}
