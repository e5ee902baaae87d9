import { connect } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { listen, type RunningServer } from '@partner/http';
import { expectError, GATEWAY_REQUEST_ID, type GatewayHarness, type IssuedKey, startGatewayHarness } from '../testing/app-harness.js';
import { handleHttpEdgeCases } from './http-edge-cases.js';

// Raw sockets: what HTTP client libraries will not send (bad methods, bad header syntax), and the
// `Expect: 100-continue` exchange step by step.
let harness: GatewayHarness;
let server: RunningServer;
let key: IssuedKey;
beforeAll(async () => {
  harness = await startGatewayHarness();
  server = await listen(harness.app, 0, '127.0.0.1');
  handleHttpEdgeCases(server.server, harness.app, harness.deps.logger);
  key = await harness.issueKey(await harness.restaurant(), { scopes: ['webhooks:manage'] });
});
afterAll(async () => {
  await server.close();
  await harness.close();
});
beforeEach(() => {
  harness.upstream.take();
});

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

function parseResponse(text: string): RawResponse {
  const end = text.indexOf('\r\n\r\n');
  const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  const raw = text.slice(end + 4);
  expect(Buffer.byteLength(raw)).toBe(Number(headers['content-length']));
  return { status: Number(statusLine!.split(' ')[1]), headers, body: raw ? JSON.parse(raw) : undefined };
}

/** Writes `request` and reads everything the gateway sends until it closes the connection. */
function exchange(request: string | Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, '127.0.0.1');
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
    socket.write(request);
  });
}

/** Waits until the socket has received `marker` (or the first `\r\n\r\n`) and returns what came. */
function readUntil(socket: ReturnType<typeof connect>, marker = '\r\n\r\n'): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    const onData = (chunk: Buffer) => {
      text += chunk.toString('utf8');
      if (text.includes(marker)) {
        socket.off('data', onData);
        resolve(text);
      }
    };
    socket.on('data', onData);
  });
}

const endpointBody = JSON.stringify({ url: 'https://example.com/hooks', events: ['item.updated'] });
const expectingPost = (headers: Record<string, string>) =>
  [
    'POST /v1/partner/webhook-endpoints HTTP/1.1',
    'Host: gateway.test',
    'Content-Type: application/json',
    'Expect: 100-continue',
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    '',
    '',
  ].join('\r\n');

describe('Expect: 100-continue', () => {
  it('sends 100 Continue once the request is accepted, then proxies the body without the Expect header', async () => {
    const socket = connect(server.port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(expectingPost({ ...key.auth, 'Content-Length': String(Buffer.byteLength(endpointBody)) }));
    expect(await readUntil(socket)).toBe('HTTP/1.1 100 Continue\r\n\r\n');
    const final = readUntil(socket, '}}');
    socket.write(endpointBody);
    const res = parseResponse(await final);
    socket.destroy();
    expect(res.status).toBe(200);
    expect(res.headers.connection).not.toBe('close');
    const [seen] = harness.upstream.take();
    expect(seen).toMatchObject({ service: 'webhooks', method: 'POST' });
    expect(seen!.headers.expect).toBeUndefined();
  });

  it('refuses a declared body over the limit with 413 and no 100 Continue, closing the connection', async () => {
    const text = await exchange(expectingPost({ ...key.auth, 'Content-Length': String(harness.config.maxBodyBytes + 1) }));
    expect(text.startsWith('HTTP/1.1 413 ')).toBe(true);
    const res = parseResponse(text);
    expectError(res, 413, 'payload_too_large');
    expect(res.headers.connection).toBe('close');
    expect(harness.upstream.take()).toEqual([]);
  });

  it('refuses a request without a valid key with 401 and no 100 Continue', async () => {
    const text = await exchange(expectingPost({ 'Content-Length': String(Buffer.byteLength(endpointBody)) }));
    expect(text.startsWith('HTTP/1.1 401 ')).toBe(true);
    expectError(parseResponse(text), 401, 'invalid_api_key');
    expect(harness.upstream.take()).toEqual([]);
  });
});

describe('requests the HTTP parser refuses', () => {
  it.each([
    ['an unknown method', 'FOO / HTTP/1.1\r\nHost: x\r\n\r\n', 400, 'invalid_request'],
    ['a lower-case method', 'get /v1/partner/me HTTP/1.1\r\nHost: x\r\n\r\n', 400, 'invalid_request'],
    ['BREW', 'BREW /pot HTTP/1.1\r\nHost: x\r\n\r\n', 400, 'invalid_request'],
    ['a header name with a space', 'GET /healthz HTTP/1.1\r\nHost: x\r\nBad Header: 1\r\n\r\n', 400, 'invalid_request'],
    ['a header line without a colon', 'GET /healthz HTTP/1.1\r\nHost: x\r\nnocolon\r\n\r\n', 400, 'invalid_request'],
    ['a bad request line', 'GARBAGE\r\n\r\n', 400, 'invalid_request'],
    ['a bad HTTP version', 'GET / HTTP/9.9\r\nHost: x\r\n\r\n', 400, 'invalid_request'],
    [
      'headers too large',
      `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      431,
      'request_header_fields_too_large',
    ],
    [
      'both Content-Length and chunked',
      'POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n',
      400,
      'invalid_request',
    ],
  ])('answers %s in the envelope with a request id', async (_name, request, status, code) => {
    const res = parseResponse(await exchange(request));
    expectError(res, status, code);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers.connection).toBe('close');
    expect(res.headers['x-request-id']).toMatch(GATEWAY_REQUEST_ID);
  });

  it('answers CONNECT in the envelope (the gateway is no tunnel)', async () => {
    expectError(parseResponse(await exchange('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n')), 400, 'invalid_request');
  });

  it('serves a request whose Expect is not 100-continue as if it had none', async () => {
    const res = parseResponse(
      await exchange(
        `GET /v1/partner/me HTTP/1.1\r\nHost: x\r\nExpect: tea\r\nAuthorization: ${key.auth.Authorization}\r\nConnection: close\r\n\r\n`,
      ),
    );
    expect(res.status).toBe(200);
  });

  it('still answers a well-formed request on the same server normally', async () => {
    const res = parseResponse(await exchange('GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'));
    expect(res).toMatchObject({ status: 200, body: { status: 'ok' } });
  });
});
