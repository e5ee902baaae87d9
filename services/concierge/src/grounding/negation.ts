import { allergensOf } from './allergens.js';
import { COMMA, isTerm, type Piece } from './terms.js';
import { NEGATIONS } from './stop-words.js';

/** After a negation that governs what follows them: "allergic to milk", "free from gluten". */
const FORWARD_LINKS = new Set(['to', 'of', 'from']);
/** After a list word, these start what the diner does want: "without nuts and with salmon". */
const POSITIVE_LINKS = new Set(['with', 'want', 'have', 'having', 'like', 'include', 'including', 'contain', 'containing']);

const isWordIn = (words: ReadonlySet<string>, piece: Piece | undefined) => piece !== undefined && !isTerm(piece) && words.has(piece.word);
const isComma = (piece: Piece | undefined) => piece !== undefined && !isTerm(piece) && piece.word === COMMA;

/**
 * Whether the first term from `at` (past linking words, in `step`'s direction) names an allergen: a
 * comma carries a negation on only to one ("no nuts, dairy or eggs"), never to anything else ("allergic
 * to milk, any desserts?").
 */
function namesAllergen(pieces: Piece[], at: number, step: 1 | -1): boolean {
  let i = at;
  while (isWordIn(NEGATIONS.linking, pieces[i])) i += step;
  const piece = pieces[i];
  return isTerm(piece) && allergensOf(piece.term).length > 0;
}

/**
 * The positions of the terms a negation governs, in a question or a dish's text: "no nuts or eggs",
 * "can't eat any shellfish", "dairy and gluten free", "nut allergy", "allergic to milk", "allergies:
 * nuts, dairy". A negation governs one term and the allergens in the rest of its noun phrase ("no
 * roasted nuts"), then the next across "and"/"or"/"nor" (a slash or an ampersand reads as "and"), or
 * across a comma when the next names an allergen: in "no dairy desserts" the desserts are wanted; in
 * "no fish sauce or nuts" the nuts are not.
 */
export function negatedTerms(pieces: Piece[]): Set<number> {
  const negated = new Set<number>();
  const governForward = (from: number) => {
    for (let i = from; ; i++) {
      while (isWordIn(NEGATIONS.linking, pieces[i])) i++;
      if (!isTerm(pieces[i])) return;
      negated.add(i++);
      // The rest of its noun phrase: its allergens governed too ("roasted nuts"), other words not ("dairy desserts").
      for (let next = pieces[i]; isTerm(next); next = pieces[++i]) if (allergensOf(next.term).length) negated.add(i);
      if (isComma(pieces[i]) && namesAllergen(pieces, i + 1, 1)) continue;
      if (!isWordIn(NEGATIONS.list, pieces[i])) return;
      if (isWordIn(POSITIVE_LINKS, pieces[i + 1])) return;
    }
  };
  const governBackward = (from: number) => {
    for (let i = from; isTerm(pieces[i]); i -= 2) {
      negated.add(i);
      if (isComma(pieces[i - 1]) && namesAllergen(pieces, i - 2, -1)) continue;
      if (!isWordIn(NEGATIONS.list, pieces[i - 1])) return;
    }
  };
  pieces.forEach((piece, i) => {
    if (isTerm(piece)) return;
    if (NEGATIONS.before.has(piece.word)) governForward(i + 1);
    else if (NEGATIONS.after.has(piece.word)) {
      // "allergic to milk", "allergies: nuts" (nothing before it to govern), or "nut-free".
      if (isWordIn(FORWARD_LINKS, pieces[i + 1]) || !isTerm(pieces[i - 1])) governForward(i + 1);
      else governBackward(i - 1);
    }
  });
  return negated;
}
