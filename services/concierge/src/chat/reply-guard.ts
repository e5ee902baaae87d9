import type { MenuEntry } from '../grounding/menu-index.js';
import { MARKER, type ReplyFacts, SentenceRules, type WithheldReason } from './sentence-rules.js';

/** A sentence ends at . ! ? or … before white space, or at a line break. */
const SENTENCE_END = /[.!?…]+["')\]’”]*\s+|\n+/;
/** Past this many characters without a sentence end, all but the last `OVERLAP` are judged and let go. */
const LONGEST_SENTENCE = 400;
/** Longer than any phrase a rule looks for: a phrase across a cut is always judged whole. */
const OVERLAP = 120;

/**
 * Holds the model's streamed text back a sentence at a time and lets through only the sentences that
 * keep to the menu (`SentenceRules`): a sentence that breaks a rule is withheld whole. The card markers
 * are taken out of what passes and their dishes collected for cards. The prompt asks for all this; this
 * makes sure of it, at the cost of the first words arriving a sentence later (docs/decisions.md).
 *
 * A run with no sentence end is let go in pieces: each piece is judged with the `OVERLAP` characters
 * after it, which are held back and judged again with the next piece; once a piece is withheld, the
 * rest of its sentence is too.
 */
export class ReplyGuard {
  private pending = '';
  private passed = false;
  /** A piece of the current sentence broke a rule: so does the rest of it. */
  private withholdingSentence = false;
  private readonly rules: SentenceRules;
  readonly cited: MenuEntry[] = [];
  readonly withheld: WithheldReason[] = [];

  constructor(facts: ReplyFacts) {
    this.rules = new SentenceRules(facts);
  }

  /** The text of every complete sentence in `chunk` (and before it) that keeps to the menu. */
  push(chunk: string): string {
    this.pending += chunk;
    let out = '';
    for (;;) {
      const end = SENTENCE_END.exec(this.pending);
      if (end) {
        out += this.release(end.index + end[0].length, { endsSentence: true });
      } else if (this.pending.length > LONGEST_SENTENCE) {
        const cut = this.pending.lastIndexOf(' ', this.pending.length - OVERLAP) + 1 || this.pending.length - OVERLAP;
        out += this.release(cut, { endsSentence: false });
      } else {
        return out;
      }
    }
  }

  /** The last, unfinished sentence, judged like the others; `fallback` if nothing at all passed. */
  flush(fallback: string | null): string {
    const rest = this.release(this.pending.length, { endsSentence: true });
    return rest.trim() || this.passed || !fallback ? rest : fallback;
  }

  /** The held text up to `cut`, if it keeps to the menu, judged with all that is held. */
  private release(cut: number, { endsSentence }: { endsSentence: boolean }): string {
    const piece = this.pending.slice(0, cut);
    const judgement = this.withholdingSentence ? null : this.rules.judge(this.pending.slice(0, endsSentence ? cut : undefined));
    // The dishes the judged text cites: the piece's markers are among them.
    const found = judgement && 'cited' in judgement ? judgement.cited : null;
    this.pending = this.pending.slice(cut);
    this.withholdingSentence = !found && !endsSentence;
    if (judgement && 'withheld' in judgement) this.withheld.push(judgement.withheld);
    if (!found || !piece) return '';
    const visible = piece.replace(MARKER, (_match, id: string) => {
      if (!this.cited.some((dish) => dish.id === id)) this.cited.push(found.get(id)!);
      return '';
    });
    this.passed ||= visible.trim() !== '';
    return visible;
  }
}
