import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver } from '../testing/receiver.js';
import { WebhookSender } from './sender.js';

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
