import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { generateInternalKeyPair, INTERNAL_TOKEN_HEADER, verifyInternalToken } from '@partner/auth';
import { createApp } from '../app.js';
import { expectError, useAppHarness } from '../testing/app-harness.js';
import { WebhooksServiceClient } from './webhooks.client.js';

// The harness's webhooks service is down (downService). The forwarding itself, against a running
// webhooks service, is e2e's (e2e/src/webhooks.test.ts).

const h = useAppHarness();

describe('webhook routes while the webhooks service is unreachable', () => {
  it.each([
    ['GET', '/console/webhook-deliveries?status=failed'],
    ['POST', '/console/webhook-deliveries/whd_abc123/resend'],
    ['POST', '/console/webhook-endpoints/we_abc123/enable'],
    ['POST', '/console/webhook-endpoints/we_abc123/recover'],
  ] as const)('%s %s answers 503 service_unavailable with Retry-After, at once', async (method, path) => {
    const started = Date.now();
    const res = await (method === 'GET' ? request(h.app).get(path) : request(h.app).post(path)).set(h.admin);
    expect(Date.now() - started).toBeLessThan(3_000);
    expectError(res, 503, 'service_unavailable');
    expect(res.headers['retry-after']).toBe('1');
  });
});

describe('webhook routes forwarded to the webhooks service', () => {
  /** A stand-in for the webhooks service: records what console sends and answers as told. */
  async function startStub(answer: { status: number; body: unknown }) {
    const received: { method: string; path: string; headers: IncomingHttpHeaders; body: string }[] = [];
    const server = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => (body += chunk));
      req.on('end', () => {
        received.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body });
        res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const keys = generateInternalKeyPair();
    const app = createApp({
      ...h.deps,
      webhooks: new WebhooksServiceClient({
        baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        internalPrivateKey: keys.privateKey,
      }),
    });
    return {
      app,
      received,
      publicKey: keys.publicKey,
      close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    };
  }

  const recovery = {
    endpointId: 'we_abc123',
    since: '2026-11-24T00:00:00.000Z',
    until: '2026-11-25T00:00:00.000Z',
    queued: 3,
    held: 0,
    truncated: false,
  };

  it.each([
    ['recover', '/console/webhook-endpoints/we_abc123/recover', { since: '2026-11-24T00:00:00Z' }, 202, { data: recovery }],
    [
      'enable with recoverSince',
      '/console/webhook-endpoints/we_abc123/enable',
      { recoverSince: '2026-11-24T00:00:00Z' },
      200,
      { data: { id: 'we_abc123', status: 'active' }, meta: { recovery } },
    ],
  ])(
    '%s: sends the body on to the operator route as the operator, and answers what it answered',
    async (_name, path, body, status, answer) => {
      const stub = await startStub({ status, body: answer });
      try {
        const res = await request(stub.app).post(path).set(h.admin).send(body);
        expect(res.status).toBe(status);
        expect(res.body).toEqual(answer);
        expect(stub.received).toHaveLength(1);
        const [sent] = stub.received;
        expect(sent).toMatchObject({ method: 'POST', path: path.replace('/console/', '/internal/') });
        expect(JSON.parse(sent!.body)).toEqual(body);
        expect(sent!.headers['content-type']).toBe('application/json');
        expect(sent!.headers['x-request-id']).toBe(res.headers['x-request-id']);
        const token = sent!.headers[INTERNAL_TOKEN_HEADER] as string;
        expect(verifyInternalToken(stub.publicKey, token, 'webhooks')).toEqual({ kind: 'operator' });
      } finally {
        await stub.close();
      }
    },
  );

  it('forwards a listing sent with a JSON body (which a GET cannot carry on) without it', async () => {
    const stub = await startStub({ status: 200, body: { data: [], meta: { nextCursor: null } } });
    try {
      const res = await request(stub.app).get('/console/webhook-deliveries?status=failed').set(h.admin).send({});
      expect(res.status).toBe(200);
      expect(stub.received[0]).toMatchObject({ method: 'GET', path: '/internal/webhook-deliveries?status=failed', body: '' });
    } finally {
      await stub.close();
    }
  });

  it('re-enables without a body as before, and passes an error through with its status', async () => {
    const refused = { error: { code: 'invalid_request', message: 'Bad since.', requestId: 'x', param: 'since' } };
    const stub = await startStub({ status: 400, body: refused });
    try {
      const enable = await request(stub.app).post('/console/webhook-endpoints/we_abc123/enable').set(h.admin);
      expect(stub.received[0]).toMatchObject({ path: '/internal/webhook-endpoints/we_abc123/enable', body: '' });
      expect(stub.received[0]!.headers['content-type']).toBeUndefined();
      expect(enable.status).toBe(400);
      const recover = await request(stub.app).post('/console/webhook-endpoints/we_abc123/recover').set(h.admin).send({ since: 'no' });
      expect(recover.status).toBe(400);
      expect(recover.body).toEqual(refused);
    } finally {
      await stub.close();
    }
  });
});
