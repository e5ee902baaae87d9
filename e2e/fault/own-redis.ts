import { type ChildProcess, spawn } from 'node:child_process';
import { connect } from 'node:net';
import { freePort } from '@partner/testing';
import { sleep } from './cleanup.ts';

/**
 * A redis-server of the run's own on a free loopback port, without persistence (a restart starts
 * empty, as a crashed cache without AOF would). Unlike @partner/testing's startOwnRedisServer it can be
 * killed and started again on the same port, which is what the services' clients reconnect to.
 */
export interface OwnRedis {
  url: string;
  /** SIGKILL: no shutdown, connections reset. */
  kill(): Promise<void>;
  start(): Promise<void>;
  destroy(): Promise<void>;
}

/** One PING over a raw socket: true once the server answers PONG. */
function pings(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (chunk) => done(chunk.toString().startsWith('+PONG')));
  });
}

export async function startOwnRedis(): Promise<OwnRedis> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  let destroyed = false;

  const own: OwnRedis = {
    url: `redis://127.0.0.1:${port}`,
    async start() {
      if (destroyed) throw new Error('the own Redis was destroyed');
      const server = spawn(
        process.env.REDIS_SERVER_PATH ?? 'redis-server',
        ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
        { stdio: 'ignore' },
      );
      child = server;
      for (let attempt = 0; attempt < 100; attempt++) {
        if (server.exitCode !== null) break;
        if (await pings(port)) return;
        await sleep(50);
      }
      server.kill('SIGKILL');
      throw new Error(`redis-server did not start on port ${port}`);
    },
    async kill() {
      const server = child;
      if (!server || server.exitCode !== null || server.signalCode !== null) return;
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.kill('SIGKILL');
      await exited;
    },
    destroy() {
      destroyed = true;
      return own.kill();
    },
  };
  await own.start();
  return own;
}
