import { Agent, get, type IncomingMessage } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { testRedisUrl, type TestDatabase, useTestDatabase } from '@partner/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Logger, silentLogger } from './logger.js';
import { Readiness } from './readiness.js';
import { postgresCheck, redisCheck } from './readiness-checks.js';
import { connectRedis, type RedisClient } from './redis.js';
import { createServiceApp } from './service-app.js';
import { pino } from 'pino';
import { type ServiceParts, type ShutdownTimings, type StartedService, startWith } from './start-service.js';

// The shutdown a SIGTERM starts, as a load balancer sees it: clients keep sending on keep-alive
// connections until the balancer, polling /readyz, takes the instance out; one SSE stream is open.
// Nothing may fail and the stream must end whole.
// The drain leaves a loaded machine room for the balancer to notice and the late requests to land; the
// stream (15 × 250 ms) outlasts it.
const DRAIN_MS = 2_500;
const STREAM_EVENTS = 15;
const STREAM_EVERY_MS = 250;

let database: TestDatabase;
let redis: RedisClient;
beforeAll(async () => {
  database = await useTestDatabase();
  redis = await connectRedis(testRedisUrl(), () => {});
});
afterAll(async () => {
  await redis.quit();
  await database.drop();
});

/** An app with a route that queries Postgres and an SSE route that outlives the drain. */
function drainApp(logger: Logger) {
  return createServiceApp({
    service: 'drain',
    logger,
    guard: (_req, _res, next) => next(),
    trustIncomingRequestId: false,
    maxBodyBytes: 1024,
    register: (router) => {
      router.get('/work', async (_req, res) => {
        const { rows } = await sql<{ one: number }>`select 1 as one`.execute(database.db);
        await sleep(10);
        res.json({ data: rows[0] });
      });
      router.get('/stream', async (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
        for (let n = 1; n <= STREAM_EVENTS; n++) {
          res.write(`event: tick\ndata: ${n}\n\n`);
          await sleep(STREAM_EVERY_MS);
        }
        res.end('event: done\ndata: {}\n\n');
      });
    },
  });
}

/** A service of that app, behind readiness checks of the real Postgres and Redis. */
async function startService(): Promise<StartedService> {
  const logger = silentLogger();
  const app = drainApp(logger);
  const readiness = new Readiness({ checks: [postgresCheck(database.db), redisCheck(redis)], timeoutMs: 1_000, logger });
  return startWith(
    { app, logger, readiness, closeDeps: async () => {} },
    { port: 0, host: '127.0.0.1', shutdown: { drainMs: DRAIN_MS, streamGraceMs: 10_000 } },
  );
}

interface Answer {
  status: number;
  connection: string | undefined;
  body: string;
}

function request(port: number, path: string, agent: Agent): Promise<Answer> {
  return new Promise((resolve, reject) => {
    get({ host: '127.0.0.1', port, path, agent }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection, body }));
      res.on('error', reject);
    }).on('error', reject);
  });
}

/** An SSE stream's text as it arrives, and whether it ended as the server meant (not cut). */
function openStream(port: number) {
  const events: string[] = [];
  let firstEvent: () => void = () => {};
  const opened = new Promise<void>((resolve) => (firstEvent = resolve));
  const ended = new Promise<'complete' | 'cut'>((resolve) => {
    get({ host: '127.0.0.1', port, path: '/stream', agent: new Agent({ keepAlive: true }) }, (res: IncomingMessage) => {
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        events.push(...chunk.split('\n\n').filter(Boolean));
        firstEvent();
      });
      res.on('end', () => resolve(res.complete ? 'complete' : 'cut'));
      res.on('aborted', () => resolve('cut'));
      res.on('error', () => resolve('cut'));
    }).on('error', () => resolve('cut'));
  });
  return { events, opened, ended };
}

describe('shutdown (SIGTERM)', () => {
  it('turns unready first, keeps serving through the drain with Connection: close, lets the stream end whole, then stops', async () => {
    const service = await startService();
    const { port } = service;
    const stream = openStream(port);
    await stream.opened;

    // The balancer: polls /readyz on fresh connections, and takes the instance out at the first 503.
    let inRotation = true;
    let readyzWhenOut: Answer | null = null;
    const balancer = (async () => {
      while (inRotation) {
        const answer = await request(port, '/readyz', new Agent({ keepAlive: false }));
        if (answer.status === 503) {
          readyzWhenOut = answer;
          inRotation = false;
        } else await sleep(50);
      }
    })();

    // Clients on keep-alive connections, sending while the instance is in rotation.
    const clientAgent = new Agent({ keepAlive: true, maxSockets: 4 });
    const answers: Answer[] = [];
    const failures: unknown[] = [];
    const client = async () => {
      while (inRotation) {
        try {
          answers.push(await request(port, '/work', clientAgent));
        } catch (err) {
          failures.push(err);
        }
      }
    };
    const clients = Promise.all(Array.from({ length: 4 }, client));
    await sleep(300);

    const began = performance.now();
    const stopped = service.shutdown();
    await balancer;
    expect(readyzWhenOut).toMatchObject({ status: 503, body: JSON.stringify({ status: 'draining' }) });
    await clients;
    // A balancer slower to notice still reaches the instance, on old connections and new ones: served,
    // each answer closing its connection.
    const late = await Promise.all([request(port, '/work', clientAgent), request(port, '/work', new Agent({ keepAlive: true }))]);
    expect(late.map((answer) => [answer.status, answer.connection])).toEqual([
      [200, 'close'],
      [200, 'close'],
    ]);

    await stopped;
    const tookMs = performance.now() - began;
    expect(failures).toEqual([]);
    expect(answers.length).toBeGreaterThan(0);
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    // The stream outlived the drain and still ended as the route meant: every event, then `done`.
    expect(await stream.ended).toBe('complete');
    expect(stream.events).toEqual([
      ...Array.from({ length: STREAM_EVENTS }, (_, n) => `event: tick\ndata: ${n + 1}`),
      'event: done\ndata: {}',
    ]);
    expect(tookMs).toBeGreaterThanOrEqual(DRAIN_MS);
    // Stopped: no longer accepting.
    await expect(request(port, '/work', new Agent({ keepAlive: false }))).rejects.toThrow(/ECONNREFUSED/);
    clientAgent.destroy();
  });
});

describe('shutdown when something will not stop', () => {
  /** A service answering every request with an empty 200; `lines` has its log. */
  function startBare(parts: Partial<ServiceParts>, shutdown: ShutdownTimings) {
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
    const readiness = new Readiness({ checks: [], timeoutMs: 100, logger });
    const started = startWith(
      { app: (_req, res) => res.end(), logger, readiness, closeDeps: async () => {}, ...parts },
      { port: 0, host: '127.0.0.1', shutdown },
    );
    return { started, lines };
  }

  it('logs background work that fails to stop while the drain runs, and stops all the same', async () => {
    const { started, lines } = startBare(
      { stopBackground: () => Promise.reject(new Error('the dispatcher would not stop')) },
      { drainMs: 200, streamGraceMs: 0 },
    );
    const service = await started;
    await expect(service.shutdown()).resolves.toBeUndefined();
    expect(lines.some((line) => line.includes('background work failed to stop') && line.includes('the dispatcher would not stop'))).toBe(
      true,
    );
  });

  it('gives up on a shutdown that has not finished within drain, stream grace and closing time', async () => {
    const { started } = startBare(
      { stopBackground: () => new Promise<void>(() => {}) },
      { drainMs: 100, streamGraceMs: 100, closeMs: 200 },
    );
    const service = await started;
    const began = performance.now();
    await expect(service.shutdown()).rejects.toThrow('shutdown did not finish within 400 ms');
    expect(performance.now() - began).toBeLessThan(1_500);
  });
});

describe('a service that cannot start (its port taken)', () => {
  it('stops its background work, then closes its dependencies, and fails', async () => {
    const taken = await startService();
    const logger = silentLogger();
    const steps: string[] = [];
    try {
      const started = startWith(
        {
          app: drainApp(logger),
          logger,
          readiness: new Readiness({ checks: [], timeoutMs: 1_000, logger }),
          stopBackground: async () => void steps.push('background stopped'),
          closeDeps: async () => void steps.push('dependencies closed'),
        },
        { port: taken.port, host: '127.0.0.1', shutdown: { drainMs: 0, streamGraceMs: 0 } },
      );
      await expect(started).rejects.toThrow(/EADDRINUSE/);
      expect(steps).toEqual(['background stopped', 'dependencies closed']);
    } finally {
      await taken.shutdown();
    }
  });
});
