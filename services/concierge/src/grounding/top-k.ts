/**
 * The best `limit` positions by score (higher first, then the earlier position), kept sorted as they
 * are offered: O(limit) an offer, for the handful of dishes a turn retrieves, instead of sorting every
 * match.
 */
export class TopK {
  readonly positions: number[] = [];
  readonly scores: number[] = [];

  constructor(private readonly limit: number) {}

  get full(): boolean {
    return this.positions.length >= this.limit;
  }

  /** The last kept position and its score (only when `full`). */
  get worst(): { position: number; score: number } {
    return { position: this.positions.at(-1)!, score: this.scores.at(-1)! };
  }

  offer(position: number, score: number): void {
    let at = this.positions.length;
    while (at > 0 && (this.scores[at - 1]! < score || (this.scores[at - 1] === score && this.positions[at - 1]! > position))) at--;
    if (at >= this.limit) return;
    this.positions.splice(at, 0, position);
    this.scores.splice(at, 0, score);
    if (this.positions.length > this.limit) {
      this.positions.pop();
      this.scores.pop();
    }
  }
}
