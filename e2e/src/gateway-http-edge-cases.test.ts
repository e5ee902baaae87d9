import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restaurantWithKey, startStack, type Stack } from './stack.js';

// Issue 15: `Expect: 100-continue` through the gateway to a real service, and the envelope on
// requests Node's HTTP parser refuses.
let stack: Stack;
let auth: Record<string, string>;
beforeAll(async () => {
  stack = await startStack({ gatewayEnv: { MAX_BODY_BYTES: '4096' } });
  ({ auth } = await restaurantWithKey(stack, { scopes: ['webhooks:manage'] }));
});
afterAll(() => stack.stop());

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: { data?: Record<string, unknown>; error?: { code: string; requestId: string } };
  continued: boolean;
}

/** Sends a JSON body the way clients that wait for `100 Continue` do: the body only once told to. */
function sendExpectingContinue(method: string, path: string, body: string, headers: Record<string, string> = {}): Promise<Answer> {
  const url = new URL(path, stack.gatewayUrl);
  return new Promise((resolve, reject) => {
    let continued = false;
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method,
        headers: {
          ...auth,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          expect: '100-continue',
          ...headers,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode!, headers: res.headers, body: JSON.parse(text) as Answer['body'], continued }),
        );
      },
    );
    req.on('continue', () => {
      continued = true;
      req.end(body);
    });
    req.on('error', reject);
  });
}

describe('Expect: 100-continue', () => {
  it('creates and updates a webhook endpoint through the gateway (201, then 200)', async () => {
    const created = await sendExpectingContinue(
      'POST',
      '/v1/partner/webhook-endpoints',
      JSON.stringify({ url: 'https://93.184.215.14/hooks', enabledEvents: ['item.updated'] }),
    );
    expect(created).toMatchObject({ status: 201, continued: true });
    const id = created.body.data!.id as string;
    const updated = await sendExpectingContinue('PATCH', `/v1/partner/webhook-endpoints/${id}`, JSON.stringify({ description: 'POS' }));
    expect(updated).toMatchObject({ status: 200, continued: true, body: { data: { id, description: 'POS' } } });
  });

  it('refuses a declared body over MAX_BODY_BYTES with 413 before 100 Continue', async () => {
    const answer = await sendExpectingContinue('POST', '/v1/partner/webhook-endpoints', 'x'.repeat(5000));
    expect(answer).toMatchObject({ status: 413, continued: false, body: { error: { code: 'payload_too_large' } } });
    expect(answer.headers['x-request-id']).toBe(answer.body.error!.requestId);
  });
});

describe('requests the HTTP parser refuses', () => {
  it.each([
    ['FOO /v1/partner/me HTTP/1.1', 400, 'invalid_request'],
    ['get /v1/partner/me HTTP/1.1', 400, 'invalid_request'],
    [`GET /v1/partner/me HTTP/1.1\r\nX-Big: ${'a'.repeat(20_000)}`, 431, 'request_header_fields_too_large'],
  ])('%s… is answered in the envelope with a request id', async (head, status, code) => {
    const url = new URL(stack.gatewayUrl);
    const text = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(url.port), url.hostname);
      let received = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => (received += chunk));
      socket.on('end', () => resolve(received));
      socket.on('error', reject);
      socket.write(`${head}\r\nHost: gateway.test\r\n\r\n`);
    });
    const [head_, body] = text.split('\r\n\r\n') as [string, string];
    expect(head_.split('\r\n')[0]).toMatch(new RegExp(`^HTTP/1.1 ${status} `));
    const envelope = JSON.parse(body) as Answer['body'];
    expect(envelope.error!.code).toBe(code);
    expect(head_).toContain(`X-Request-Id: ${envelope.error!.requestId}`);
  });
});
