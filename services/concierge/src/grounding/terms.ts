import { ALLERGEN_KINDS, ALLERGEN_NAMES } from './allergen-vocabulary.js';
import { FOOD_TAXONOMY } from './food-taxonomy.js';
import { stem } from './stemming.js';
import { NEGATIONS, STOP_WORDS } from './stop-words.js';

/** Lower case ASCII words of two characters or more: a question's and a dish's words alike. */
export function tokenize(text: string): string[] {
  // Printable ASCII decomposes to itself: most menu text skips the decomposition.
  const folded = /[^ -~]/.test(text) ? text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '') : text;
  return folded
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((token) => token.length > 1);
}

/**
 * A piece of a text as retrieval reads it: a `term` (a word's stem, or a known phrase's stems joined
 * by a space, "ice cream") or a grammar `word` (a stop word or a negation, as written).
 */
export type Piece = { term: string; words: string[] } | { word: string };

/** "ice cream" as its words' stems, "ice cream"; a text's words alike. */
export const stemPhrase = (phrase: string): string => tokenize(phrase).map(stem).join(' ');

/** The phrases the vocabularies know, stemmed, and the longest one's length in words. */
const PHRASES = new Set(
  [...Object.entries(FOOD_TAXONOMY).flat(2), ...Object.values(ALLERGEN_NAMES).flat(), ...Object.values(ALLERGEN_KINDS).flat()]
    .filter((entry) => entry.includes(' '))
    .map(stemPhrase),
);
const LONGEST_PHRASE = Math.max(1, ...[...PHRASES].map((phrase) => phrase.split(' ').length));

const isGrammar = (word: string) =>
  STOP_WORDS.has(word) || NEGATIONS.before.has(word) || NEGATIONS.after.has(word) || NEGATIONS.list.has(word);

/**
 * The words of a question or of a dish's text, lower case. "n't" joins its verb ("can't" → "cant", a
 * negation) rather than leaving a bare "can" behind.
 */
export const wordsOf = (text: string): string[] =>
  tokenize(
    text
      .replace(/n['’]t\b/gi, 'nt')
      // "w/o" is without; "free range" is how a hen lived, not a dish free of range.
      .replace(/\bw\/o\b/gi, 'without')
      .replace(/\bfree[- ]range\b/gi, 'freerange')
      // A slash or an ampersand joins like "and": "no nuts/dairy".
      .replace(/\s*[/&]\s*/g, ' and '),
  );

/** A comma between a text's words: it may carry a list on ("no nuts, dairy or eggs"), or not ("allergic to milk, any desserts?"). */
export const COMMA = ',';

/**
 * A question's clauses: a negation reaches no further than its clause. A clause ends at
 * . ; ? ! or a line break, at "but" or "however", and at a comma right after a lone "no" ("No, I want
 * the salmon").
 */
export const clausesOf = (text: string): string[] =>
  text
    .replace(/\b(no|nope)\s*,/gi, '$1.')
    .split(/[.;?!\n]+|\bbut\b|\bhowever\b/i)
    .filter((clause) => clause.trim());

/**
 * A text's pieces in order: its grammar words, its other words as terms (the longest known phrase
 * first), and its commas as the word `COMMA`.
 */
export function readPieces(text: string): Piece[] {
  return text.split(',').flatMap((part, i) => (i ? [{ word: COMMA }, ...readWords(part)] : readWords(part)));
}

function readWords(text: string): Piece[] {
  const words = wordsOf(text);
  const pieces: Piece[] = [];
  for (let i = 0; i < words.length;) {
    if (isGrammar(words[i]!)) {
      pieces.push({ word: words[i++]! });
      continue;
    }
    let length = 1;
    for (let n = Math.min(LONGEST_PHRASE, words.length - i); n > 1; n--) {
      const span = words.slice(i, i + n);
      if (!span.some(isGrammar) && PHRASES.has(span.map(stem).join(' '))) {
        length = n;
        break;
      }
    }
    const span = words.slice(i, i + length);
    pieces.push({ term: span.map(stem).join(' '), words: span });
    i += length;
  }
  return pieces;
}

export const isTerm = (piece: Piece | undefined): piece is { term: string; words: string[] } => piece !== undefined && 'term' in piece;
