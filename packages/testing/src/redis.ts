import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createClient } from '@redis/client';
import { freePort } from './ports.js';

export const testRedisUrl = (): string => process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A key prefix of this test's own on the shared Redis, and the cleanup that deletes its keys. */
export function useRedisPrefix(): { prefix: string; cleanup(): Promise<void> } {
  const prefix = `t${randomBytes(4).toString('hex')}:`;
  return {
    prefix,
    cleanup: async () => {
      const client = await createClient({ url: testRedisUrl() }).connect();
      for await (const keys of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 1000 })) if (keys.length) await client.del(keys);
      await client.quit();
    },
  };
}

export interface OwnRedisServer {
  url: string;
  /** SIGKILL: the server and everything it held are gone at once, as in a crash; connections reset. */
  kill(): Promise<void>;
  /** A fresh, empty server on the same port, so clients configured with `url` reconnect to it. */
  start(): Promise<void>;
  /** Ends the server for good: `start` refuses afterwards (a cleanup is never undone by a late restart). */
  stop(): Promise<void>;
}

/**
 * A `redis-server` of this test's own, for tests that pause, kill clients of, flush, kill or restart
 * Redis: doing that to the shared server would stall or wipe every other test running beside it. No
 * persistence: a restart starts empty, as a crashed cache without AOF would.
 */
export async function startOwnRedisServer(): Promise<OwnRedisServer> {
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess | null = null;
  let stopped = false;

  const start = async () => {
    if (stopped) throw new Error('this redis-server was stopped for good');
    const spawned = spawn(
      process.env.REDIS_SERVER_PATH ?? 'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    child = spawned;
    for (let attempt = 0; ; attempt++) {
      try {
        const probe = await createClient({ url, socket: { reconnectStrategy: false } }).connect();
        await probe.quit();
        return;
      } catch (err) {
        if (attempt >= 50 || spawned.exitCode !== null) {
          spawned.kill('SIGKILL');
          throw new Error(`redis-server did not start on port ${port}`, { cause: err });
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  };
  const end = async (signal: NodeJS.Signals) => {
    const running = child;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()));
    running.kill(signal);
    await exited;
  };
  await start();
  return {
    url,
    start,
    kill: () => end('SIGKILL'),
    stop: () => {
      stopped = true;
      return end('SIGTERM');
    },
  };
}
