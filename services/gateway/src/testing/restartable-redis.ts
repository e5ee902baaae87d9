import { spawn, type ChildProcess } from 'node:child_process';
import { createClient } from 'redis';
import { freePort } from '@partner/testing';

export interface RestartableRedis {
  url: string;
  /** SIGKILL: the server and everything it held are gone at once, as in a crash. */
  kill(): Promise<void>;
  /** A fresh, empty server on the same port. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A `redis-server` of this test's own that can be killed and started again on the same port, so
 * clients configured with its URL reconnect to the new one (`startOwnRedisServer` picks a new port
 * each time). Never the shared server: killing it would break every test running beside this one.
 */
export async function startRestartableRedis(): Promise<RestartableRedis> {
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess | null = null;
  let exited: Promise<void> = Promise.resolve();

  const start = async () => {
    const spawned = spawn(
      process.env.REDIS_SERVER_PATH ?? 'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    child = spawned;
    exited = new Promise((resolve) => spawned.once('exit', () => resolve()));
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
    if (!child || child.exitCode !== null) return;
    child.kill(signal);
    await exited;
    child = null;
  };
  await start();
  return { url, start, kill: () => end('SIGKILL'), stop: () => end('SIGTERM') };
}
