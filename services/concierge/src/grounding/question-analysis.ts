import { allergensAvoidedBy, allergensNamedBy, allergensOf, allergenToken } from './allergens.js';
import { negatedTerms } from './negation.js';
import { clausesOf, readPieces } from './terms.js';

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

/** What a diner's question asks for and what it asks to avoid, clause by clause. */
export function analyzeQuestion(question: string): QuestionAnalysis {
  const wanted = new Map<string, QuestionTerm>();
  const excludedAllergens = new Set<string>();
  const excludedTerms = new Map<string, QuestionTerm>();
  for (const clause of clausesOf(question)) {
    const pieces = readPieces(clause);
    const negated = negatedTerms(pieces);
    pieces.forEach((piece, i) => {
      if (!('term' in piece)) return;
      const { term } = piece;
      // A negated allergen ("no nuts"), else one the term itself avoids ("nut-free"): either is no wish.
      const named = negated.has(i) ? allergensOf(term) : [];
      const avoided = named.length ? named : allergensAvoidedBy(term);
      for (const allergen of avoided) excludedAllergens.add(allergen);
      if (avoided.length) return;
      if (negated.has(i)) {
        excludedTerms.set(term, termOf(term));
      } else {
        wanted.set(term, termOf(term));
        // Asking for "nuts" asks for every dish that declares them, whatever its words; asking for "walnuts" does not.
        for (const allergen of allergensNamedBy(term)) wanted.set(allergenToken(allergen), termOf(allergenToken(allergen)));
      }
    });
  }
  // What one clause asks to avoid, no other clause asks for ("anything with nuts? no, no nuts").
  for (const allergen of excludedAllergens) wanted.delete(allergenToken(allergen));
  return { wanted: [...wanted.values()], excludedAllergens: [...excludedAllergens].sort(), excludedTerms: [...excludedTerms.values()] };
}
