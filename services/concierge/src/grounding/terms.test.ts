import { describe, expect, it } from 'vitest';
import { readPieces, stemPhrase, tokenize, wordsOf } from './terms.js';

describe('tokenize', () => {
  it('gives lower case ASCII words of two characters or more, accents folded', () => {
    expect(tokenize('Crème brûlée & a 2nd Espresso!')).toEqual(['creme', 'brulee', '2nd', 'espresso']);
  });
});

describe('wordsOf', () => {
  it('joins "n\'t" to its verb, so that a negation survives', () => {
    expect(wordsOf("I can't eat nuts, don't ask")).toEqual(['cant', 'eat', 'nuts', 'dont', 'ask']);
    // Slashes and ampersands join like "and"; "w/o" and "free range" read as meant.
    expect(wordsOf('nuts/dairy & eggs w/o soy; free-range')).toEqual([
      'nuts',
      'and',
      'dairy',
      'and',
      'eggs',
      'without',
      'soy',
      'freerange',
    ]);
    expect(wordsOf('I can’t')).toEqual(['cant']);
  });
});

describe('readPieces', () => {
  it('keeps stop words and negations as words and stems the rest', () => {
    expect(readPieces('Do you have anything without tomatoes?')).toEqual([
      { word: 'do' },
      { word: 'you' },
      { word: 'have' },
      { word: 'anything' },
      { word: 'without' },
      { term: 'tomato', words: ['tomatoes'] },
    ]);
  });

  it('reads a known phrase as one term, the longest first', () => {
    expect(readPieces('Vanilla ice cream with pine nuts')).toEqual([
      { term: 'vanilla', words: ['vanilla'] },
      { term: 'ice cream', words: ['ice', 'cream'] },
      { word: 'with' },
      { term: 'pine nut', words: ['pine', 'nuts'] },
    ]);
    expect(stemPhrase('Fior di latte')).toBe('fior di latt');
  });

  it('reads no phrase across a grammar word', () => {
    expect(readPieces('ice and cream').map((piece) => ('term' in piece ? piece.term : piece.word))).toEqual(['ice', 'and', 'cream']);
  });
});
