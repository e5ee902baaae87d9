/**
 * What the run must undo whatever happens: processes to kill, a Postgres cluster to stop and delete.
 * Steps run newest first, each once; a failing step does not keep the others from running.
 */
export class Cleanup {
  private readonly steps: { name: string; run: () => unknown }[] = [];
  private done: Promise<void> | undefined;

  add(name: string, run: () => unknown): void {
    this.steps.push({ name, run });
  }

  runAll(): Promise<void> {
    this.done ??= (async () => {
      for (const step of [...this.steps].reverse()) {
        try {
          await step.run();
        } catch (err) {
          console.error(`cleanup: ${step.name} failed: ${err instanceof Error ? err.message : String(err)}`);
        }
      }
    })();
    return this.done;
  }

  /** Ctrl-C (or a supervisor's TERM) still stops and deletes everything the run started. */
  onSignals(): void {
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
      process.once(signal, () => {
        console.error(`\n${signal}: stopping the fault run and cleaning up`);
        void this.runAll().finally(() => process.exit(130));
      });
    }
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
