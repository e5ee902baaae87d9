import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createClient } from 'redis';
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
  stop(): Promise<void>;
}

/**
 * A `redis-server` of this test's own, for tests that pause, kill clients of or flush Redis: doing
 * that to the shared server would stall or wipe every other test running beside it.
 */
export async function startOwnRedisServer(): Promise<OwnRedisServer> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    process.env.REDIS_SERVER_PATH ?? 'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  const url = `redis://127.0.0.1:${port}`;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  for (let attempt = 0; ; attempt++) {
    try {
      const probe = await createClient({ url, socket: { reconnectStrategy: false } }).connect();
      await probe.quit();
      break;
    } catch (err) {
      if (attempt >= 50 || child.exitCode !== null) {
        child.kill('SIGKILL');
        throw new Error(`redis-server did not start on port ${port}`, { cause: err });
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return {
    url,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
