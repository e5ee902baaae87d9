/** More buckets than this in one minute are refused outright: the counter's memory stays bounded under a flood of addresses. */
const MAX_BUCKETS = 200_000;

export interface LocalTake {
  allowed: boolean;
  /** Requests counted in this bucket's current window, this one included when allowed. */
  used: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
}

/**
 * Fixed one-minute windows in this process, on its own clock: what a gateway replica counts while
 * Redis cannot. Only the current minute is kept; the map starts empty with each new minute.
 */
export class LocalWindowCounter {
  private minute = -1;
  private readonly counts = new Map<string, number>();

  take(bucket: string, limit: number, nowMs: number): LocalTake {
    const sec = Math.floor(nowMs / 1000);
    this.roll(Math.floor(sec / 60));
    const resetSeconds = 60 - (sec % 60);
    const used = this.counts.get(bucket) ?? 0;
    if (used >= limit || (used === 0 && this.counts.size >= MAX_BUCKETS)) return { allowed: false, used, resetSeconds };
    this.counts.set(bucket, used + 1);
    return { allowed: true, used: used + 1, resetSeconds };
  }

  /** The current minute (minutes since the epoch) and what was counted in it. */
  counted(nowMs: number): { minute: number; counts: [string, number][] } {
    this.roll(Math.floor(nowMs / 60_000));
    return { minute: this.minute, counts: [...this.counts] };
  }

  /** `count` of `minute`'s requests in `bucket` are counted on Redis now: they leave this counter. */
  handedOver(bucket: string, count: number, minute: number): void {
    if (minute !== this.minute) return;
    const left = (this.counts.get(bucket) ?? 0) - count;
    if (left > 0) this.counts.set(bucket, left);
    else this.counts.delete(bucket);
  }

  private roll(minute: number): void {
    if (minute === this.minute) return;
    this.minute = minute;
    this.counts.clear();
  }
}
