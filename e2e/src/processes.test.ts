import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestDatabase, freePort, platformEnvironment, useTestDatabase } from '@partner/testing';
import { REDIS_URL } from './stack.js';

// The built services as production runs them: `node dist/main.js`, configured by the environment.
const mainOf = (service: string) => fileURLToPath(new URL(`../../services/${service}/dist/main.js`, import.meta.url));

let database: TestDatabase;
beforeAll(async () => {
  database = await useTestDatabase();
});
const spawned: ReturnType<typeof spawn>[] = [];
afterAll(async () => {
  // A failed test must not leave a service running behind it.
  for (const child of spawned) if (child.exitCode === null) child.kill('SIGKILL');
  await database.drop();
});

function run(service: string, env: Record<string, string>) {
  const child = spawn(process.execPath, [mainOf(service)], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  spawned.push(child);
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, exited, output: () => output };
}

// Fails at once, with what the process printed, when it exits instead of becoming healthy.
async function waitForHealth(proc: ReturnType<typeof run>, port: number, timeoutMs = 30_000): Promise<Response> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (proc.child.exitCode !== null) throw new Error(`exited ${proc.child.exitCode} before it was healthy:\n${proc.output()}`);
    try {
      return await fetch(`http://127.0.0.1:${port}/healthz`);
    } catch (err) {
      if (Date.now() > deadline) throw new Error(`not healthy after ${timeoutMs} ms:\n${proc.output()}`, { cause: err });
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

describe('service processes', () => {
  const common = (): Record<string, string> => ({
    ...platformEnvironment(database.url, REDIS_URL),
    // Nothing routes by readiness here: SIGTERM need not wait out a load balancer's update.
    SHUTDOWN_DRAIN_SECONDS: '0.2',
    // Each process's lifecycle lines ("stopped") are what these tests read.
    LOG_LEVEL: 'info',
  });

  it.each([
    ['gateway', 'GATEWAY_PORT'],
    ['catalog', 'CATALOG_PORT'],
    ['webhooks', 'WEBHOOKS_PORT'],
    ['concierge', 'CONCIERGE_PORT'],
    ['console', 'CONSOLE_PORT'],
  ])('%s starts, answers its health check, and exits 0 on SIGTERM', async (service, portVariable) => {
    const port = await freePort();
    const proc = run(service, { ...common(), [portVariable]: String(port) });
    expect((await waitForHealth(proc, port)).status).toBe(200);
    proc.child.kill('SIGTERM');
    expect(await proc.exited).toBe(0);
    expect(proc.output()).toContain('"msg":"stopped"');
  });

  // 127.0.0.2 is this machine too (all of 127/8 is loopback), but not the address console was told to use.
  it.each([
    ['only on CONSOLE_HOST when it is set', { CONSOLE_HOST: '127.0.0.1' }, false],
    ['on every address by default', {}, true],
  ])('console listens %s', async (_name, hostEnv, reachableElsewhere) => {
    const port = await freePort();
    const proc = run('console', { ...common(), ...hostEnv, CONSOLE_PORT: String(port) });
    expect((await waitForHealth(proc, port)).status).toBe(200);
    const elsewhere = await fetch(`http://127.0.0.2:${port}/healthz`).then(
      (res) => res.status === 200,
      () => false,
    );
    expect(elsewhere).toBe(reachableElsewhere);
    proc.child.kill('SIGTERM');
    expect(await proc.exited).toBe(0);
  });

  it('refuses to start with a missing or bad variable, naming it and not printing secrets', async () => {
    const { DATABASE_URL: _omitted, ...env } = common();
    const proc = run('catalog', { ...env, CURSOR_SIGNING_SECRET: 'too-short-secret', CATALOG_PORT: 'eighty' });
    expect(await proc.exited).not.toBe(0);
    expect(proc.output()).toContain('CURSOR_SIGNING_SECRET');
    expect(proc.output()).not.toContain('too-short-secret');
    const proc2 = run('catalog', { ...common(), DATABASE_URL: '' });
    expect(await proc2.exited).not.toBe(0);
    expect(proc2.output()).toContain('DATABASE_URL');
  });
});
