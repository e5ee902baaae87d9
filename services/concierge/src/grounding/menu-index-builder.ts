import { analyzeDish } from './dish-analysis.js';
import { encodeEntry, type MenuEntry, type MenuIndexData } from './menu-index.js';
import { buildStringTable } from './string-table.js';

/** UTF-8 text appended to one growing buffer. */
class ByteSink {
  private buffer = new Uint8Array(1 << 16);
  length = 0;
  private readonly encoder = new TextEncoder();

  write(text: string): void {
    const needed = this.length + text.length * 3;
    if (needed > this.buffer.length) {
      const grown = new Uint8Array(Math.max(needed, this.buffer.length * 2));
      grown.set(this.buffer.subarray(0, this.length));
      this.buffer = grown;
    }
    this.length += this.encoder.encodeInto(text, this.buffer.subarray(this.length)).written;
  }

  bytes(): Uint8Array {
    return this.buffer.slice(0, this.length);
  }
}

/**
 * Builds a `MenuIndexData` from dishes given in menu order, a batch at a time (the worker's job): each
 * dish's tokens and weights are `analyzeDish`'s.
 */
export class MenuIndexBuilder {
  private readonly vocabulary = new Map<string, number>();
  private readonly ids: string[] = [];
  private readonly entries = new ByteSink();
  private readonly entryOffsets = [0];
  private readonly itemOffsets = [0];
  private readonly itemTokens: number[] = [];
  private readonly itemWeights: number[] = [];

  add(entry: MenuEntry): void {
    for (const [token, weight] of analyzeDish(entry)) {
      let id = this.vocabulary.get(token);
      if (id === undefined) this.vocabulary.set(token, (id = this.vocabulary.size));
      this.itemTokens.push(id);
      this.itemWeights.push(weight);
    }
    this.itemOffsets.push(this.itemTokens.length);
    this.ids.push(entry.id);
    this.entries.write(encodeEntry(entry));
    this.entryOffsets.push(this.entries.length);
  }

  finish(etag: string): MenuIndexData {
    const tokens = [...this.vocabulary.keys()];
    const itemTokens = Int32Array.from(this.itemTokens);
    const itemWeights = Uint32Array.from(this.itemWeights);
    const itemOffsets = Uint32Array.from(this.itemOffsets);
    const tokenOffsets = new Uint32Array(tokens.length + 1);
    tokens.forEach((token, i) => (tokenOffsets[i + 1] = tokenOffsets[i]! + token.length));
    return {
      etag,
      entryBytes: this.entries.bytes(),
      entryOffsets: Uint32Array.from(this.entryOffsets),
      idSlots: buildStringTable(this.ids),
      // Tokens are ASCII (`tokenize`'s words, stemmed, and `allergens.ts`'s): one byte a character.
      tokenBytes: new TextEncoder().encode(tokens.join('')),
      tokenOffsets,
      tokenSlots: buildStringTable(tokens),
      itemOffsets,
      itemTokens,
      itemWeights,
      ...invertedPostings(tokens.length, itemOffsets, itemTokens, itemWeights),
    };
  }
}

/** The postings of each token, highest weight first, then in menu order. */
function invertedPostings(tokenCount: number, itemOffsets: Uint32Array, itemTokens: Int32Array, itemWeights: Uint32Array) {
  const postingOffsets = new Uint32Array(tokenCount + 1);
  for (const token of itemTokens) postingOffsets[token + 1]!++;
  for (let t = 0; t < tokenCount; t++) postingOffsets[t + 1]! += postingOffsets[t]!;
  const postingPositions = new Int32Array(itemTokens.length);
  const postingWeights = new Uint32Array(itemTokens.length);
  const fill = postingOffsets.slice(0, tokenCount);
  for (let position = 0; position < itemOffsets.length - 1; position++) {
    for (let i = itemOffsets[position]!; i < itemOffsets[position + 1]!; i++) {
      const at = fill[itemTokens[i]!]!++;
      postingPositions[at] = position;
      postingWeights[at] = itemWeights[i]!;
    }
  }
  for (let t = 0; t < tokenCount; t++) {
    const start = postingOffsets[t]!;
    const end = postingOffsets[t + 1]!;
    let ordered = true;
    for (let i = start + 1; i < end && ordered; i++) ordered = postingWeights[i - 1]! >= postingWeights[i]!;
    if (ordered) continue;
    // Filled in menu order, so a stable sort by weight keeps menu order among equal weights.
    const order = Array.from({ length: end - start }, (_, i) => start + i).sort((a, b) => postingWeights[b]! - postingWeights[a]!);
    const positions = order.map((i) => postingPositions[i]!);
    const weights = order.map((i) => postingWeights[i]!);
    postingPositions.set(positions, start);
    postingWeights.set(weights, start);
  }
  return { postingOffsets, postingPositions, postingWeights };
}
