import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Agent, get } from 'node:http';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateInternalKeyPair } from '@partner/auth';
import { type TestDatabase, freePort, useTestDatabase } from '@partner/testing';
import { REDIS_URL } from './stack.js';

// SIGTERM to a built service process (`node dist/main.js`), as Kubernetes sends it on a rolling restart:
// /readyz turns 503 first, the process keeps serving through SHUTDOWN_DRAIN_SECONDS, closing each
// keep-alive connection with its next answer, then exits 0. No client request fails on the way.
let database: TestDatabase;
beforeAll(async () => {
  database = await useTestDatabase();
});
afterAll(() => database.drop());

function answer(port: number, path: string, agent: Agent): Promise<{ status: number; connection?: string; body: string }> {
  return new Promise((resolve, reject) => {
    get({ host: '127.0.0.1', port, path, agent }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection, body }));
    }).on('error', reject);
  });
}

describe('a service process on SIGTERM', () => {
  it('turns unready, serves through the drain, then exits 0 with no failed request', async () => {
    const port = await freePort();
    const child = spawn(process.execPath, [fileURLToPath(new URL('../../services/catalog/dist/main.js', import.meta.url))], {
      env: {
        PATH: process.env.PATH ?? '',
        DATABASE_URL: database.url,
        REDIS_URL,
        REDIS_KEY_PREFIX: `d${randomBytes(3).toString('hex')}:`,
        INTERNAL_JWT_PUBLIC_KEY: generateInternalKeyPair().publicKey,
        CURSOR_SIGNING_SECRET: randomBytes(32).toString('hex'),
        ASSET_SIGNING_SECRET: randomBytes(32).toString('hex'),
        MENU_PAGE_KEY_SECRET: randomBytes(32).toString('hex'),
        VIEW_TOKEN_SECRET: randomBytes(32).toString('hex'),
        ASSET_STORAGE_DIR: '/tmp/ptr-process-drain-assets',
        CATALOG_PORT: String(port),
        SHUTDOWN_DRAIN_SECONDS: '3',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      const probe = new Agent({ keepAlive: false });
      await expect
        .poll(
          () =>
            answer(port, '/readyz', probe).then(
              (res) => res.status,
              () => 0,
            ),
          { timeout: 30_000, interval: 100 },
        )
        .toBe(200);

      let inRotation = true;
      const failures: unknown[] = [];
      let served = 0;
      const clientAgent = new Agent({ keepAlive: true, maxSockets: 4 });
      const client = async () => {
        while (inRotation) {
          await answer(port, '/healthz', clientAgent).then(
            (res) => (res.status === 200 ? served++ : failures.push(res)),
            (err: unknown) => failures.push(err),
          );
        }
      };
      const clients = Promise.all(Array.from({ length: 4 }, client));
      await sleep(200);
      child.kill('SIGTERM');
      let unready: { status: number; body: string } | null = null;
      while (!unready) {
        const res = await answer(port, '/readyz', probe);
        if (res.status === 503) unready = res;
        else await sleep(20);
      }
      inRotation = false;
      await clients;
      expect(JSON.parse(unready.body)).toEqual({ status: 'draining' });
      const late = await answer(port, '/healthz', clientAgent);
      expect([late.status, late.connection]).toEqual([200, 'close']);

      expect(await exited).toBe(0);
      expect(failures).toEqual([]);
      expect(served).toBeGreaterThan(10);
      expect(output).toContain('draining: unready, still serving');
      expect(output).toContain('"msg":"stopped"');
      clientAgent.destroy();
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});
