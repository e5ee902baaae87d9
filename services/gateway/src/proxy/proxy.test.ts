import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { errorHandler, listen, requestContext, type RunningServer, silentLogger } from '@partner/http';
import { ServiceProxy } from './proxy.js';

// The proxy against a real upstream HTTP server that streams, as the concierge will.
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

async function upstream(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server: Server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => server.close(() => resolve())));
  server.on('connection', (socket) => closers.unshift(() => Promise.resolve(socket.destroy()).then(() => undefined)));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function gatewayTo(origin: string, maxBodyBytes = 1024 * 1024, upstreamTimeoutMs = 10_000): Promise<RunningServer> {
  const proxy = new ServiceProxy({ catalog: origin, webhooks: origin, concierge: origin }, maxBodyBytes, upstreamTimeoutMs);
  const app = express();
  app.use(requestContext(silentLogger(), { trustIncomingId: false }));
  app.use((req, res) => proxy.forward('concierge', req, res, { 'x-internal-token': 'token-for-test' }));
  app.use(errorHandler());
  const server = await listen(app, 0, '127.0.0.1');
  closers.push(async () => {
    await server.close();
    await proxy.close();
  });
  return server;
}

describe('ServiceProxy', () => {
  it('refuses a chunked body with 413 once it passes the limit; the service never gets it whole', async () => {
    let receivedBytes = 0;
    const origin = await upstream((req, res) => {
      req.on('data', (chunk: Buffer) => (receivedBytes += chunk.length));
      req.on('end', () => res.end('{}'));
      req.on('error', () => {});
    });
    const gateway = await gatewayTo(origin, 1000);
    const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(
        { port: gateway.port, host: '127.0.0.1', path: '/chat', method: 'POST', headers: { 'content-type': 'application/json' } },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode!, body: text }));
        },
      );
      req.on('error', reject);
      // No Content-Length: Node sends it chunked, 600 bytes at a time.
      for (let i = 0; i < 4; i++) req.write('x'.repeat(600));
      req.end();
    });
    expect(status).toBe(413);
    expect(JSON.parse(body).error.code).toBe('payload_too_large');
    expect(receivedBytes).toBeLessThan(2400);
  });

  it('forwards a chunked body within the limit whole', async () => {
    let received = '';
    const origin = await upstream((req, res) => {
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => (received += chunk));
      req.on('end', () => res.end('{}'));
    });
    const gateway = await gatewayTo(origin, 1000);
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest({ port: gateway.port, host: '127.0.0.1', path: '/chat', method: 'POST' }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode!));
      });
      req.on('error', reject);
      req.write('a'.repeat(500));
      req.end('b'.repeat(500));
    });
    expect(status).toBe(200);
    expect(received).toBe('a'.repeat(500) + 'b'.repeat(500));
  });

  it('passes an SSE response through event by event, without buffering', async () => {
    let sendSecond: () => void = () => {};
    const origin = await upstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.write('event: meta\ndata: {"n":1}\n\n');
      sendSecond = () => res.end('event: done\ndata: {"n":2}\n\n');
    });
    const gateway = await gatewayTo(origin);
    const chunks: string[] = [];
    await new Promise<void>((resolve, reject) => {
      httpRequest({ port: gateway.port, host: '127.0.0.1', path: '/stream' }, (res) => {
        expect(res.headers['content-type']).toBe('text/event-stream');
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          chunks.push(chunk);
          // The first event arrived while the upstream is still holding the second one back.
          if (chunks.length === 1) sendSecond();
        });
        res.on('end', resolve);
        res.on('error', reject);
      })
        .on('error', reject)
        .end();
    });
    expect(chunks[0]).toBe('event: meta\ndata: {"n":1}\n\n');
    expect(chunks.join('')).toContain('event: done');
  });

  it("sends a stream's headers at once when the service holds its first event back", async () => {
    let sendFirst: () => void = () => {};
    const origin = await upstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.flushHeaders();
      sendFirst = () => res.end('event: done\ndata: {}\n\n');
    });
    const gateway = await gatewayTo(origin);
    const body = await new Promise<string>((resolve, reject) => {
      httpRequest({ port: gateway.port, host: '127.0.0.1', path: '/stream' }, (res) => {
        // The headers came on their own: nothing of the body exists yet.
        expect(res.headers['content-type']).toBe('text/event-stream');
        sendFirst();
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve(text));
        res.on('error', reject);
      })
        .on('error', reject)
        .end();
    });
    expect(body).toBe('event: done\ndata: {}\n\n');
  });

  it("answers with the service's final answer, not an interim one before it", async () => {
    const origin = await upstream((req, res) => {
      req.resume();
      res.writeEarlyHints({ link: '</a.css>; rel=preload; as=style' });
      setTimeout(() => res.writeHead(200, { 'content-type': 'application/json', 'x-from': 'service' }).end('{"ok":true}'), 20);
    });
    const gateway = await gatewayTo(origin);
    const res = await fetch(`http://127.0.0.1:${gateway.port}/v1/partner/x`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-from')).toBe('service');
    expect(await res.json()).toEqual({ ok: true });
  });

  it('streams a request body through and forwards the internal token but never the API key', async () => {
    let seen: { headers: IncomingMessage['headers']; body: string } | null = null;
    const origin = await upstream((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        seen = { headers: req.headers, body };
        res.writeHead(201, { 'content-type': 'application/json' }).end('{"ok":true}');
      });
    });
    const gateway = await gatewayTo(origin);
    const res = await fetch(`http://127.0.0.1:${gateway.port}/v1/partner/x?a=1`, {
      method: 'POST',
      headers: { authorization: 'Bearer svc_sk_live_secret', 'content-type': 'application/json', 'x-internal-token': 'forged' },
      body: JSON.stringify({ hello: 'world' }),
    });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ ok: true });
    expect(seen!.body).toBe('{"hello":"world"}');
    expect(seen!.headers.authorization).toBeUndefined();
    expect(seen!.headers['x-internal-token']).toBe('token-for-test');
  });

  it('aborts the upstream request when the client goes away', async () => {
    let upstreamClosed: () => void = () => {};
    const closed = new Promise<void>((resolve) => (upstreamClosed = resolve));
    const origin = await upstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('event: meta\ndata: {}\n\n');
      res.on('close', () => upstreamClosed());
    });
    const gateway = await gatewayTo(origin);
    await new Promise<void>((resolve) => {
      const req = httpRequest({ port: gateway.port, host: '127.0.0.1', path: '/stream' }, (res) => {
        res.once('data', () => {
          req.destroy();
          resolve();
        });
      });
      req.end();
    });
    await expect(closed).resolves.toBeUndefined();
  });

  it('survives many clients leaving mid-response (a late abort never crashes the process)', async () => {
    const errors: unknown[] = [];
    const onError = (err: unknown) => errors.push(err);
    process.on('uncaughtException', onError);
    try {
      const origin = await upstream((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        const timer = setInterval(() => res.write(Buffer.alloc(64 * 1024)), 1);
        res.on('close', () => clearInterval(timer));
      });
      const gateway = await gatewayTo(origin);
      await Promise.all(
        Array.from({ length: 20 }, (_, i) => {
          const controller = new AbortController();
          setTimeout(() => controller.abort(), 5 + i);
          return fetch(`http://127.0.0.1:${gateway.port}/big`, { signal: controller.signal })
            .then((res) => res.arrayBuffer())
            .catch(() => undefined);
        }),
      );
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(errors).toEqual([]);
    } finally {
      process.off('uncaughtException', onError);
    }
  });

  it('answers 503 service_unavailable with Retry-After once a service that never answers has had its time', async () => {
    const origin = await upstream(() => {}); // takes the request, never answers (a frozen process)
    const gateway = await gatewayTo(origin, 1024, 300);
    const started = Date.now();
    const res = await fetch(`http://127.0.0.1:${gateway.port}/anything`);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('service_unavailable');
  });

  it('answers 503 service_unavailable when the service cannot be reached', async () => {
    const gateway = await gatewayTo('http://127.0.0.1:9');
    const res = await fetch(`http://127.0.0.1:${gateway.port}/anything`);
    expect(res.status).toBe(503);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('service_unavailable');
  });
});
