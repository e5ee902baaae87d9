import porter2 from 'wink-porter2-stemmer';

/**
 * Where Porter2 joins words a diner keeps apart: "fried" is how a dish is cooked, "fries" (and "fry",
 * Porter2's stem of both) what comes with it.
 */
const EXCEPTIONS: Readonly<Record<string, string>> = { fried: 'fried' };

/** Stems kept: menus repeat their words, and a 50,000-dish build stems each distinct word once. Cleared when full. */
const MEMO_LIMIT = 50_000;
const memo = new Map<string, string>();

/**
 * A word's stem (Porter2, the English Snowball stemmer): tomatoes → tomato, grilled → grill, fries → fri.
 * Words with digits are kept as they are (Porter2 reads a "3" as its own marker for "y").
 */
export function stem(word: string): string {
  if (!/^[a-z]+$/.test(word)) return word;
  let stemmed = memo.get(word);
  if (stemmed === undefined) {
    if (memo.size >= MEMO_LIMIT) memo.clear();
    stemmed = EXCEPTIONS[word] ?? porter2(word);
    memo.set(word, stemmed);
  }
  return stemmed;
}
