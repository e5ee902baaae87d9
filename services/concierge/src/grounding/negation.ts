import { isTerm, type Piece } from './terms.js';
import { NEGATIONS } from './stop-words.js';

/** After a negation that governs what follows them: "allergic to milk", "free from gluten". */
const FORWARD_LINKS = new Set(['to', 'of', 'from']);

const isWordIn = (words: ReadonlySet<string>, piece: Piece | undefined) => piece !== undefined && !isTerm(piece) && words.has(piece.word);

/**
 * The positions of the terms a negation governs, in a question or a dish's text: "no nuts or eggs",
 * "can't eat any shellfish", "dairy and gluten free", "nut allergy", "allergic to milk". A negation
 * governs one term, and the next across "and"/"or"/"nor": in "no dairy desserts" the desserts are wanted.
 */
export function negatedTerms(pieces: Piece[]): Set<number> {
  const negated = new Set<number>();
  const governForward = (from: number) => {
    for (let i = from; ; i++) {
      while (isWordIn(NEGATIONS.linking, pieces[i])) i++;
      if (!isTerm(pieces[i])) return;
      negated.add(i++);
      if (!isWordIn(NEGATIONS.list, pieces[i])) return;
    }
  };
  const governBackward = (from: number) => {
    for (let i = from; isTerm(pieces[i]); i -= 2) {
      negated.add(i);
      if (!isWordIn(NEGATIONS.list, pieces[i - 1])) return;
    }
  };
  pieces.forEach((piece, i) => {
    if (isTerm(piece)) return;
    if (NEGATIONS.before.has(piece.word)) governForward(i + 1);
    else if (NEGATIONS.after.has(piece.word)) {
      if (isWordIn(FORWARD_LINKS, pieces[i + 1])) governForward(i + 2);
      else governBackward(i - 1);
    }
  });
  return negated;
}
