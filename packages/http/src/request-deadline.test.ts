import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import type { Router } from 'express';
import { pino } from 'pino';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { expectError } from '@partner/testing';
import { createServiceApp } from './service-app.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A service frame with `register`'s routes, a 300 ms deadline, and its log lines in `lines`. */
function frame(register: (router: Router) => void) {
  const lines: { level: number; msg: string; kind?: string; err?: { stack?: string } }[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as (typeof lines)[number]) });
  const app = createServiceApp({
    service: 'frame',
    logger,
    guard: (_req, _res, next) => next(),
    trustIncomingRequestId: false,
    maxBodyBytes: 1024,
    requestDeadlineMs: 300,
    register,
  });
  return { app, lines };
}

const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

describe('the request deadline', () => {
  it('answers a route still working at the deadline with 503 and Retry-After, and drops its late answer', async () => {
    // Whether the route's own answer, once it comes, failed (the deadline answered first).
    let lateAnswerFailed: (failed: boolean) => void = () => {};
    const lateAnswer = new Promise<boolean>((resolve) => (lateAnswerFailed = resolve));
    const { app } = frame((router) =>
      router.get('/slow', async (_req, res) => {
        await sleep(2_000);
        try {
          res.json({ data: 'late' });
          lateAnswerFailed(false);
        } catch {
          lateAnswerFailed(true);
        }
      }),
    );
    const started = Date.now();
    const res = await request(app).get('/slow');
    expectError(res, 503, 'service_unavailable');
    expect(res.headers['retry-after']).toBe('2');
    expect(res.body.error.requestId).toBe(res.headers['x-request-id']);
    // At the 300 ms deadline, long before the route's answer (the margin absorbs a busy machine).
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(await lateAnswer).toBe(true);
  });

  it('leaves a response whose headers are out alone: an event stream outlives it', async () => {
    const { app } = frame((router) =>
      router.get('/stream', async (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'text/event-stream' });
        res.write('event: meta\ndata: {}\n\n');
        await sleep(500);
        res.end('event: done\ndata: {}\n\n');
      }),
    );
    const res = await request(app).get('/stream');
    expect(res.status).toBe(200);
    expect(res.text).toContain('event: done');
  });

  it('answers /healthz and quick routes as before', async () => {
    const { app } = frame((router) => router.get('/quick', (_req, res) => void res.json({ data: 1 })));
    expect((await request(app).get('/healthz')).status).toBe(200);
    expect((await request(app).get('/quick')).body).toEqual({ data: 1 });
  });
});

describe('dependency faults at the error handler', () => {
  it('are 503 service_unavailable with Retry-After, logged once per burst without a stack', async () => {
    const { app, lines } = frame((router) =>
      router.get('/db', () => {
        throw new AggregateError([refused(), refused()]);
      }),
    );
    for (let i = 0; i < 20; i++) {
      const res = await request(app).get('/db');
      expectError(res, 503, 'service_unavailable');
      expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    }
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 40, kind: 'network:unreachable' });
    expect(JSON.stringify(lines[0])).not.toContain('    at ');
  });

  it('a 503 a route threw itself gets a Retry-After if it had none', async () => {
    const { AppError } = await import('@partner/contracts');
    const { app } = frame((router) =>
      router.get('/unavailable', () => {
        throw new AppError('service_unavailable', 'Rate limiting is briefly unavailable. Retry shortly.');
      }),
    );
    const res = await request(app).get('/unavailable');
    expectError(res, 503, 'service_unavailable');
    expect(res.headers['retry-after']).toBe('2');
  });

  it('a genuine bug stays 500 internal_error, logged with its stack every time', async () => {
    const { app, lines } = frame((router) =>
      router.get('/bug', () => {
        throw new TypeError("Cannot read properties of undefined (reading 'id')");
      }),
    );
    for (let i = 0; i < 3; i++) expectError(await request(app).get('/bug'), 500, 'internal_error');
    expect(lines).toHaveLength(3);
    expect(lines.every((line) => line.level === 50 && line.err?.stack?.includes('TypeError'))).toBe(true);
  });

  it('a fault after the stream began ends the stream instead of answering twice', async () => {
    const { app } = frame((router) =>
      router.get('/stream', (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'text/event-stream' });
        res.write('event: meta\ndata: {}\n\n');
        throw refused();
      }),
    );
    const server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/stream`);
      expect(res.status).toBe(200);
      await expect(res.text()).rejects.toThrow();
    } finally {
      server.close();
    }
  });
});
