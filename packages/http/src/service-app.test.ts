import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { expectError } from '@partner/testing';
import { commonConfig, parseEnv, ZCommonEnv } from './config.js';
import { silentLogger } from './logger.js';
import { createServiceApp } from './service-app.js';

/** A service frame whose one route echoes the body it parsed, with the body limit of `env`. */
function echoService(env: Record<string, string>) {
  const config = commonConfig(parseEnv(ZCommonEnv, { DATABASE_URL: 'postgres://db', REDIS_URL: 'redis://redis', ...env }));
  return createServiceApp({
    service: 'echo',
    logger: silentLogger(),
    guard: (_req, _res, next) => next(),
    trustIncomingRequestId: false,
    maxBodyBytes: config.maxBodyBytes,
    register: (router) => router.post('/echo', (req, res) => void res.json({ data: req.body as unknown })),
  });
}

/** A JSON body of exactly `bytes` bytes. */
const bodyOf = (bytes: number) => JSON.stringify({ text: 'x'.repeat(bytes - '{"text":""}'.length) });

describe('the body limit of a service', () => {
  it('is MAX_BODY_BYTES, the setting the gateway reads: a body of that size passes, one byte more is 413', async () => {
    const app = echoService({ MAX_BODY_BYTES: '2048' });
    const send = (body: string) => request(app).post('/echo').set('Content-Type', 'application/json').send(body);
    expect((await send(bodyOf(2048))).status).toBe(200);
    expectError(await send(bodyOf(2049)), 413, 'payload_too_large');
  });

  it('holds for a chunked body, which declares no length', async () => {
    const server = echoService({ MAX_BODY_BYTES: '2048' }).listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const chunks = [bodyOf(4096).slice(0, 2000), bodyOf(4096).slice(2000)];
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/echo`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: Readable.toWeb(Readable.from(chunks)) as ReadableStream,
        duplex: 'half',
      });
      expectError({ status: res.status, body: await res.json(), headers: Object.fromEntries(res.headers) }, 413, 'payload_too_large');
    } finally {
      server.close();
    }
  });

  it('is 1 MiB unless configured', async () => {
    const app = echoService({});
    const send = (body: string) => request(app).post('/echo').set('Content-Type', 'application/json').send(body);
    expect((await send(bodyOf(1_048_576))).status).toBe(200);
    expectError(await send(bodyOf(1_048_577)), 413, 'payload_too_large');
  });
});
