import { describe, expect, it } from 'vitest';
import { PartnerClient } from './client.js';
import { ConciergeStreamError } from './errors.js';
import { apiError, fakeClock, scriptedFetch } from './testing/fake-fetch.js';
import type { TConciergeEvent } from '@partner/contracts';

/** An event stream delivered in the chunks given, then held open until `end()` (or forever). */
function eventStream(chunks: string[], options: { hold?: boolean } = {}) {
  const encoder = new TextEncoder();
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      if (!options.hold) controller.close();
    },
    cancel() {
      cancelled = true;
    },
  });
  return { response: new Response(body, { headers: { 'content-type': 'text/event-stream' } }), cancelled: () => cancelled };
}

const client = (fetch: ReturnType<typeof scriptedFetch>['fetch']) =>
  new PartnerClient({ apiKey: 'svc_sk_test_x', baseUrl: 'http://api.test', fetch, clock: fakeClock().clock, random: () => 0 });

describe('concierge stream', () => {
  it('yields typed events as they arrive, across chunk boundaries, skipping comments and unknown events', async () => {
    const stream = eventStream([
      'event: meta\ndata: {"turnId":"trn_1","disclosure":"AI"}\n\n: keep-alive\n\n',
      'event: delta\ndata: {"text":"Try the "}\n\nevent: del',
      'ta\ndata: {"text":"tiramisu"}\n\nevent: sparkles\ndata: {}\n\n',
      'event: done\ndata: {"turnId":"trn_1","finishReason":"stop"}\n\n',
    ]);
    const { fetch, sent } = scriptedFetch(stream.response);
    const events: TConciergeEvent[] = [];
    for await (const event of client(fetch).concierge.chat('rst_1', { message: 'Dessert?' })) events.push(event);
    expect(events.map((event) => event.event)).toEqual(['meta', 'delta', 'delta', 'done']);
    const text = events.map((event) => (event.event === 'delta' ? event.data.text : '')).join('');
    expect(text).toBe('Try the tiramisu');
    expect(sent[0]).toMatchObject({
      method: 'POST',
      url: 'http://api.test/v1/partner/restaurants/rst_1/concierge/chat',
      body: { message: 'Dessert?' },
      headers: { accept: 'text/event-stream' },
    });
    expect(sent[0]!.headers['idempotency-key']).toBeTruthy();
  });

  it('throws ConciergeStreamError when the body ends before done or error: the answer so far is incomplete', async () => {
    const stream = eventStream(['event: meta\ndata: {"turnId":"trn_1"}\n\nevent: delta\ndata: {"text":"Try the "}\n\n']);
    const { fetch } = scriptedFetch(stream.response);
    const seen: string[] = [];
    const reading = (async () => {
      for await (const event of client(fetch).concierge.chat('rst_1', { message: 'Dessert?' })) seen.push(event.event);
    })();
    await expect(reading).rejects.toBeInstanceOf(ConciergeStreamError);
    expect(seen).toEqual(['meta', 'delta']);
  });

  it('throws ConciergeStreamError, with the network error as its cause, when the connection breaks mid-body', async () => {
    const encoder = new TextEncoder();
    const broken = new TypeError('terminated');
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode('event: meta\ndata: {"turnId":"trn_1"}\n\n'));
        setTimeout(() => controller.error(broken), 10);
      },
    });
    const { fetch } = scriptedFetch(new Response(body, { headers: { 'content-type': 'text/event-stream' } }));
    const seen: string[] = [];
    const reading = (async () => {
      for await (const event of client(fetch).concierge.chat('rst_1', { message: 'Dessert?' })) seen.push(event.event);
    })();
    const error = await reading.then(
      () => null,
      (err: unknown) => err,
    );
    expect(error).toBeInstanceOf(ConciergeStreamError);
    expect((error as ConciergeStreamError).cause).toBe(broken);
    expect(seen).toEqual(['meta']);
  });

  it('cancels the body when the loop is left early', async () => {
    const stream = eventStream(['event: meta\ndata: {}\n\nevent: delta\ndata: {"text":"a"}\n\n'], { hold: true });
    const { fetch } = scriptedFetch(stream.response);
    for await (const event of client(fetch).concierge.chat('rst_1', { message: 'Hi' })) {
      expect(event.event).toBe('meta');
      break;
    }
    expect(stream.cancelled()).toBe(true);
  });

  it('throws an AbortError once aborted, even with events already read', async () => {
    const stream = eventStream(['event: meta\ndata: {}\n\nevent: delta\ndata: {"text":"a"}\n\n'], { hold: true });
    const { fetch } = scriptedFetch(stream.response);
    const controller = new AbortController();
    const seen: string[] = [];
    const run = async () => {
      for await (const event of client(fetch).concierge.chat('rst_1', { message: 'Hi' }, { signal: controller.signal })) {
        seen.push(event.event);
        controller.abort();
      }
    };
    await expect(run()).rejects.toMatchObject({ name: 'AbortError' });
    expect(seen).toEqual(['meta']);
    expect(stream.cancelled()).toBe(true);
  });

  it('throws refusals before the stream as typed errors', async () => {
    const { fetch } = scriptedFetch(apiError(403, 'concierge_unavailable'));
    const run = async () => {
      for await (const _event of client(fetch).concierge.chat('rst_1', { message: 'Hi' })) throw new Error('no events expected');
    };
    await expect(run()).rejects.toMatchObject({ code: 'concierge_unavailable', status: 403, requestId: 'req_0123' });
  });
});
