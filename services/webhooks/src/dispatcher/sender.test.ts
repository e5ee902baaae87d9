import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver } from '../testing/receiver.js';
import { SEND_TIMEOUT_MS, WebhookSender } from './sender.js';

// The service's clock, far from the machine's: a Retry-After date must be read against this one.
const NOW = new Date('2031-03-04T05:06:07Z');

let receiver: Awaited<ReturnType<typeof startReceiver>>;
let sender: WebhookSender;
beforeAll(async () => {
  receiver = await startReceiver((received) => {
    const [status, retryAfter] = received.path.slice(1).split('/') as [string, string];
    return { status: Number(status), headers: { 'retry-after': decodeURIComponent(retryAfter) } };
  });
  sender = new WebhookSender({ allowPrivate: true }, () => NOW);
});
afterAll(async () => {
  await sender.close();
  await receiver.close();
});

/** A server of the test's own on loopback: its URL, and a close that ends its connections too. */
async function serve(handler: RequestListener): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

const send = (status: number, retryAfter: string) => sender.send(receiver.url(`/${status}/${encodeURIComponent(retryAfter)}`), '{}', {});

describe('Retry-After', () => {
  it('as an HTTP date is measured from the service clock', async () => {
    const in90s = new Date(NOW.getTime() + 90_000).toUTCString();
    expect(await send(503, in90s)).toMatchObject({ ok: false, status: 503, retryAfterMs: 90_000 });
    expect(await send(429, new Date(NOW.getTime() - 5_000).toUTCString())).toMatchObject({ retryAfterMs: 0 });
  });

  it('as seconds, on 429 and 503 only', async () => {
    expect(await send(429, '120')).toMatchObject({ retryAfterMs: 120_000 });
    expect(await send(500, '120')).toMatchObject({ status: 500, retryAfterMs: null });
  });
});

describe('an answer whose body does not end', () => {
  // Answers with the status and headers, then the body in pieces: `pieces` of 16 KiB, then nothing more.
  let stalling: Awaited<ReturnType<typeof serve>>;
  const stallingUrl = (status: number, pieces: number) => `${stalling.url}/${status}/${pieces}`;
  beforeAll(async () => {
    stalling = await serve((req, res) => {
      req.resume();
      req.on('end', () => {
        const [status, pieces] = req.url!.slice(1).split('/').map(Number) as [number, number];
        res.writeHead(status, { 'retry-after': '7' });
        for (let piece = 0; piece < pieces; piece++) res.write(Buffer.alloc(16 * 1024, 'x'));
      });
    });
  });
  afterAll(() => stalling.close());

  it('keeps the status once the time is up', async () => {
    const outcome = await sender.send(stallingUrl(503, 1), '{}', {}, { timeoutMs: 300 });
    expect(outcome).toMatchObject({ ok: false, status: 503, error: 'HTTP 503', retryAfterMs: 7_000 });
    expect(outcome.durationMs).toBeGreaterThanOrEqual(290);
  });

  it('is not read past 64 KiB: the status stands at once, without waiting for the time to run out', async () => {
    const outcome = await sender.send(stallingUrl(200, 8), '{}', {});
    expect(outcome).toMatchObject({ ok: true, status: 200, error: null });
    expect(outcome.durationMs).toBeLessThan(SEND_TIMEOUT_MS);
  });
});

describe('an interim answer', () => {
  it('is passed over: the final status is the outcome, and the time limit still counts until it comes', async () => {
    let finalAfterMs = 0;
    const hinting = await serve((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeEarlyHints({ link: '</style.css>; rel=preload; as=style' });
        setTimeout(() => res.writeHead(202).end(), finalAfterMs);
      });
    });
    const url = `${hinting.url}/`;
    try {
      expect(await sender.send(url, '{}', {})).toMatchObject({ ok: true, status: 202, error: null });
      finalAfterMs = 1_000;
      expect(await sender.send(url, '{}', {}, { timeoutMs: 200 })).toMatchObject({
        ok: false,
        status: null,
        error: 'no answer within 0.2 s',
      });
    } finally {
      await hinting.close();
    }
  });
});

describe('no answer', () => {
  it('fails with the time it waited once it is up', async () => {
    // Accepts the connection, never answers.
    const silent = await serve(() => undefined);
    const outcome = await sender.send(`${silent.url}/`, '{}', {}, { timeoutMs: 200 });
    await silent.close();
    expect(outcome).toMatchObject({ ok: false, status: null, error: 'no answer within 0.2 s', retryAfterMs: null });
  });

  it('fails with the reason when the connection is refused', async () => {
    const closed = await serve(() => undefined);
    await closed.close();
    const outcome = await sender.send(`${closed.url}/`, '{}', {});
    expect(outcome).toMatchObject({ ok: false, status: null, retryAfterMs: null });
    expect(outcome.error).toContain('ECONNREFUSED');
  });
});
