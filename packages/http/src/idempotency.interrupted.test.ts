import { pino } from 'pino';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { internalCaller, keyPrincipalFor, useTestDatabase, type TestDatabase } from '@partner/testing';
import { createInternalServiceApp } from './service-app.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let database: TestDatabase;
beforeAll(async () => {
  database = await useTestDatabase();
});
afterAll(() => database.drop());

/**
 * A service whose POST /things takes `slowMs` and counts its runs; a 300 ms request deadline unless
 * told. With `failFirstRun`, the first run answers 500 (so its claim is let go).
 */
function slowService(slowMs: number, requestDeadlineMs = 300, options: { failFirstRun?: boolean } = {}) {
  const caller = internalCaller('frame');
  let runs = 0;
  const app = createInternalServiceApp({
    service: 'frame',
    logger: pino({ level: 'silent' }),
    db: database.db,
    internalPublicKey: caller.publicKey,
    maxBodyBytes: 1024,
    requestDeadlineMs,
    register: (router) =>
      router.post('/things', async (_req, res) => {
        const run = (runs += 1);
        await sleep(slowMs);
        if (options.failFirstRun && run === 1) res.status(500).json({ error: { code: 'internal_error', message: 'first run' } });
        else res.status(201).json({ data: { run } });
      }),
  });
  const headers = {
    ...caller.headers(keyPrincipalFor({ kind: 'restaurant', id: 'rst_deadline' })),
    'Idempotency-Key': `k-${Math.random()}`,
  };
  const post = () => request(app).post('/things').set(headers).send({ a: 1 });
  /**
   * Retries while the answer is 503 (the retry's own deadline passed while the first run held the
   * claim), as a client would: how long the late run and its storing take depends on how busy the
   * machine is, not on what is tested.
   */
  const retryUntilSettled = async () => {
    for (let attempt = 0; attempt < 40; attempt++) {
      const res = await post();
      if (res.status !== 503) return res;
      await sleep(250);
    }
    throw new Error('the first run never settled');
  };
  return { post, retryUntilSettled, runs: () => runs };
}

describe('Idempotency-Key past the request deadline', () => {
  it("stores the late route's own answer, so the retry replays it instead of running the route again", async () => {
    const service = slowService(600);
    expect((await service.post()).status).toBe(503);
    await sleep(500); // the route finishes and answers, to no one
    const retry = await service.retryUntilSettled();
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual({ data: { run: 1 } });
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(service.runs()).toBe(1);
  });

  it('keeps a retry waiting while the late route still runs, never running it beside it', async () => {
    const service = slowService(1_200);
    expect((await service.post()).status).toBe(503);
    // This retry's own deadline answers while the first still holds the claim.
    expect((await service.post()).status).toBe(503);
    const settled = await service.retryUntilSettled();
    expect(settled.status).toBe(201);
    expect(service.runs()).toBe(1);
  });
});

describe('Idempotency-Key when the client goes away before the answer', () => {
  it("stores the route's answer that no one received, so the retry replays it instead of running the route again", async () => {
    const service = slowService(600, 10_000);
    // The client gives up after 100 ms and closes its connection; the route runs on.
    await expect(service.post().timeout(100)).rejects.toThrow(/Timeout/);
    // The retry arrives while the first run still works: it waits for that run's answer.
    const retry = await service.post();
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual({ data: { run: 1 } });
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(service.runs()).toBe(1);
  });
});

describe('Idempotency-Key when the client goes away while its request waits for the key', () => {
  it('still settles the run it then makes: the next retry replays it instead of waiting on a claim for ever', async () => {
    const service = slowService(400, 10_000, { failFirstRun: true });
    // The first run holds the key, then fails and lets it go; the second request waits for the key meanwhile,
    // and its client gives up before it gets it.
    const first = service.post().then((res) => res); // sent now: supertest sends once asked for its answer
    await sleep(50);
    await expect(service.post().timeout(150)).rejects.toThrow(/Timeout/);
    expect((await first).status).toBe(500);
    // The waiting request takes the key and runs, for no one; that run is the one this retry gets.
    await expect.poll(() => service.runs()).toBe(2);
    const retry = await service.post();
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual({ data: { run: 2 } });
    expect(retry.headers['idempotent-replayed']).toBe('true');
  });
});
