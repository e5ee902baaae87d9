/**
 * A wake-up call one loop waits on: `notify` ends the wait under way, or the next one when none is
 * (a notice is never lost between two waits).
 */
export class Signal {
  private notified = false;
  private end: (() => void) | null = null;

  notify(): void {
    this.notified = true;
    this.end?.();
  }

  /** Resolves true once notified, or false after `ms` without a notice. */
  wait(ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      const end = () => {
        clearTimeout(timer);
        this.end = null;
        const was = this.notified;
        this.notified = false;
        resolve(was);
      };
      const timer = setTimeout(end, ms);
      this.end = end;
      if (this.notified) end();
    });
  }
}
