import { createDb, type Db } from '@partner/db';
import { freePort, startOwnRedisServer, testRedisUrl, type TestDatabase, useTestDatabase } from '@partner/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from './logger.js';
import { type ReadinessCheck, Readiness } from './readiness.js';
import { postgresCheck, redisCheck } from './readiness-checks.js';
import { connectRedis, type RedisClient } from './redis.js';
import { createServiceApp } from './service-app.js';
import { type StartedService, startWith } from './start-service.js';

// /readyz over real HTTP, with the checks every service uses against the machine's Postgres and Redis,
// and against a Postgres port nobody listens on and a Redis server this file kills.
let database: TestDatabase;
let redis: RedisClient;
const started: StartedService[] = [];
const closers: (() => Promise<unknown>)[] = [];
beforeAll(async () => {
  database = await useTestDatabase();
  redis = await connectRedis(testRedisUrl(), () => {});
});
afterAll(async () => {
  await Promise.all(started.map((service) => service.stop()));
  for (const close of closers) await close();
  await redis.quit();
  await database.drop();
});

/** A service frame with these checks, listening; `/readyz` as a probe sees it. */
async function serviceWith(checks: ReadinessCheck[], timeoutMs = 1_000) {
  const logger = silentLogger();
  const readiness = new Readiness({ checks, timeoutMs, logger });
  const app = createServiceApp({
    service: 'probe',
    logger,
    guard: (_req, res) => void res.status(401).json({ error: 'no credentials' }),
    trustIncomingRequestId: false,
    maxBodyBytes: 1024,
    register: () => {},
  });
  const service = await startWith(
    { app, logger, readiness, closeDeps: async () => {} },
    { port: 0, host: '127.0.0.1', shutdown: { drainMs: 0, streamGraceMs: 1_000 } },
  );
  started.push(service);
  const base = `http://127.0.0.1:${service.port}`;
  return {
    service,
    readyz: async () => {
      const res = await fetch(`${base}/readyz`);
      return { status: res.status, retryAfter: res.headers.get('retry-after'), text: await res.text() };
    },
  };
}

/** A pool to a loopback port nobody listens on: every connection attempt is refused. */
async function unreachablePostgres(): Promise<{ db: Db; url: string }> {
  const url = `postgres://postgres:hunter2@127.0.0.1:${await freePort()}/partner`;
  const db = createDb({ url, max: 2 });
  closers.push(() => db.destroy());
  return { db, url };
}

const hang = (): ReadinessCheck['probe'] => () => new Promise(() => {});

describe('GET /readyz', () => {
  it('is 200 ready when Postgres and Redis answer, without credentials (the guard is not in the way)', async () => {
    const { readyz } = await serviceWith([postgresCheck(database.db), redisCheck(redis)]);
    const answer = await readyz();
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text)).toEqual({ status: 'ready', checks: { postgres: 'ok', redis: 'ok' } });
  });

  it('is 503 with Retry-After naming postgres when the database is unreachable, and shows no connection string', async () => {
    const { db, url } = await unreachablePostgres();
    const { readyz } = await serviceWith([postgresCheck(db), redisCheck(redis)]);
    const answer = await readyz();
    expect(answer.status).toBe(503);
    expect(answer.retryAfter).toBe('5');
    expect(JSON.parse(answer.text)).toEqual({ status: 'unready', checks: { postgres: 'unreachable', redis: 'ok' } });
    for (const secret of ['hunter2', new URL(url).port, '127.0.0.1', 'postgres://']) expect(answer.text).not.toContain(secret);
  });

  it('is 503 naming redis when Redis is unreachable', async () => {
    const own = await startOwnRedisServer();
    closers.push(() => own.stop());
    const client = await connectRedis(own.url, () => {}, { commandTimeoutMs: 5_000 });
    closers.push(async () => client.destroy());
    const { readyz } = await serviceWith([postgresCheck(database.db), redisCheck(client)], 500);
    expect((await readyz()).status).toBe(200);
    await own.kill();
    // A client reconnecting queues its PING: the check's own deadline answers, not Redis's 5 s timeout.
    await expect
      .poll(async () => JSON.parse((await readyz()).text) as unknown, { timeout: 5_000, interval: 200 })
      .toEqual({ status: 'unready', checks: { postgres: 'ok', redis: expect.stringMatching(/^(timeout after 500 ms|unreachable)$/) } });
  });

  it('runs the checks in parallel, each within its deadline', async () => {
    const { readyz } = await serviceWith(
      [
        { name: 'first', probe: hang() },
        { name: 'second', probe: hang() },
        { name: 'third', probe: hang() },
      ],
      500,
    );
    const began = performance.now();
    const answer = await readyz();
    // One after another they would take 1.5 s.
    expect(performance.now() - began).toBeLessThan(1_200);
    expect(JSON.parse(answer.text)).toEqual({
      status: 'unready',
      checks: { first: 'timeout after 500 ms', second: 'timeout after 500 ms', third: 'timeout after 500 ms' },
    });
  });

  it('stays 200, degraded, when only a check that is not required fails, and names it', async () => {
    const { db } = await unreachablePostgres();
    const { readyz } = await serviceWith([redisCheck(redis), { ...postgresCheck(db), name: 'catalog', required: false }]);
    const answer = await readyz();
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text)).toEqual({ status: 'degraded', checks: { redis: 'ok', catalog: 'unreachable' } });
  });

  it('runs the checks once for probes that arrive together, and reuses the answer for a second', async () => {
    let runs = 0;
    const { readyz } = await serviceWith([{ name: 'counted', probe: async () => void runs++ }]);
    await Promise.all(Array.from({ length: 20 }, () => readyz()));
    await readyz();
    expect(runs).toBe(1);
  });

  it('says draining, without running the checks, once drained', async () => {
    let runs = 0;
    const readiness = new Readiness({
      checks: [{ name: 'counted', probe: async () => void runs++ }],
      timeoutMs: 1_000,
      logger: silentLogger(),
    });
    readiness.drain();
    expect(await readiness.report()).toEqual({ status: 'draining' });
    expect(runs).toBe(0);
  });
});
