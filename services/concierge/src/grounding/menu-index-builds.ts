import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { DbOptions } from '@partner/db';
import { MenuIndex, type MenuIndexData } from './menu-index.js';

// The built worker, from dist/ also when this module runs from src/ (tests): a thread loads modules
// with Node's own loader, which does not read TypeScript sources. For the same reason it resolves our
// packages to their built files, whatever export conditions this process runs with (vitest: `source`).
const WORKER = fileURLToPath(new URL('../../dist/grounding/menu-index.worker.js', import.meta.url));
const CONDITIONS = /^(--conditions|-C)(=|$)/;
const workerExecArgv = process.execArgv.filter((arg, i, args) => !CONDITIONS.test(arg) && !/^(--conditions|-C)$/.test(args[i - 1] ?? ''));

/** A thread with no build to do for this long ends, and its database connection with it. */
const IDLE_MS = 30_000;

export type BuildReply = { data: MenuIndexData } | { error: Error };

interface Job {
  restaurantId: string;
  resolve: (data: MenuIndexData) => void;
  reject: (err: Error) => void;
}

/**
 * Menu indexes built on worker threads: at most `threads` builds at once, the rest queued. A thread
 * that fails or exits fails its build only, and the next build starts a new one. (Not piscina: a
 * piscina 5.3 task whose worker failed to start never settled, even with an abort signal.)
 */
export class MenuIndexBuilds {
  private readonly queue: Job[] = [];
  private readonly idle = new Map<Worker, NodeJS.Timeout>();
  private readonly workers = new Set<Worker>();

  constructor(private readonly options: { database: Pick<DbOptions, 'url' | 'applicationName' | 'deadlines'>; threads: number }) {}

  async build(restaurantId: string): Promise<MenuIndex> {
    const data = await new Promise<MenuIndexData>((resolve, reject) => {
      this.queue.push({ restaurantId, resolve, reject });
      this.dispatch();
    });
    return new MenuIndex(data);
  }

  async close(): Promise<void> {
    for (const job of this.queue.splice(0)) job.reject(new Error('the concierge is shutting down'));
    await Promise.all([...this.workers].map((worker) => worker.terminate()));
  }

  private dispatch(): void {
    while (this.queue.length) {
      const worker = this.idle.keys().next().value ?? (this.workers.size < this.options.threads ? this.spawn() : undefined);
      if (!worker) return;
      clearTimeout(this.idle.get(worker));
      this.idle.delete(worker);
      this.run(worker, this.queue.shift()!);
    }
  }

  private spawn(): Worker {
    const worker = new Worker(WORKER, { workerData: this.options.database, execArgv: workerExecArgv });
    this.workers.add(worker);
    // A thread that fails between builds just ends ('exit' follows); one that fails during a build fails it (`run`).
    worker.on('error', () => {});
    worker.once('exit', () => {
      this.workers.delete(worker);
      clearTimeout(this.idle.get(worker));
      this.idle.delete(worker);
      this.dispatch();
    });
    return worker;
  }

  private run(worker: Worker, job: Job): void {
    worker.ref();
    const settle = (outcome: () => void) => {
      worker.off('message', onReply).off('error', onError).off('exit', onExit);
      outcome();
    };
    const onReply = (reply: BuildReply) =>
      settle(() => {
        if ('data' in reply) job.resolve(reply.data);
        else job.reject(reply.error);
        worker.unref();
        this.idle.set(worker, setTimeout(() => void worker.terminate(), IDLE_MS).unref());
        this.dispatch();
      });
    const onError = (err: Error) => settle(() => job.reject(err));
    const onExit = (code: number) => settle(() => job.reject(new Error(`the menu index thread exited (code ${code}) during a build`)));
    worker.on('message', onReply).on('error', onError).on('exit', onExit);
    worker.postMessage(job.restaurantId);
  }
}
