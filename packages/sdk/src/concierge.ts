import type { TChatRequest, TConciergeEvent, TConciergeEventName } from '@partner/contracts';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { ConciergeStreamError } from './errors.js';
import { path, type MutationOptions, type Transport } from './transport.js';

// The names this version knows. A stream may carry others later (spec 9: additive); they are skipped.
const EVENT_NAMES: ReadonlySet<string> = new Set(['meta', 'delta', 'cards', 'detail', 'done', 'error'] satisfies TConciergeEventName[]);

/**
 * The Server-Sent Events of a response body as they arrive. Leaving early (a `break`, an error, an
 * abort) cancels the body, which closes the connection and stops the model's turn upstream.
 */
async function* readEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<EventSourceMessage> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const parsed: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (message) => parsed.push(message) });
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        finished = true;
        return;
      }
      parser.feed(decoder.decode(value, { stream: true }));
      while (parsed.length) yield parsed.shift()!;
    }
  } finally {
    if (!finished) await reader.cancel().catch(() => {});
  }
}

export class Concierge {
  constructor(private readonly transport: Transport) {}

  /**
   * One diner turn against a restaurant's menu, streamed as typed events: `meta` first (its
   * `disclosure` must be shown to the diner), `delta`s of text, `cards` and `detail`, then `done` or
   * `error`. Nothing is sent until you iterate. Refusals before the stream starts (404, 403
   * concierge_unavailable or subscription_inactive, 429) are thrown as PartnerApiError; 429 and 503
   * are retried first.
   *
   * `for await (const event of client.concierge.chat(rst, { message: 'Anything vegan?' }, { signal }))`
   */
  async *chat(
    restaurantId: string,
    request: TChatRequest,
    options: MutationOptions = {},
  ): AsyncGenerator<TConciergeEvent, void, undefined> {
    const { signal } = options;
    const res = await this.transport.send('POST', path`/v1/partner/restaurants/${restaurantId}/concierge/chat`, {
      body: request,
      headers: { accept: 'text/event-stream' },
      signal,
      idempotencyKey: options.idempotencyKey,
    });
    if (!res.body || !res.headers.get('content-type')?.startsWith('text/event-stream')) {
      await res.body?.cancel();
      throw new Error(`Expected an event stream, got ${res.headers.get('content-type') ?? 'no body'}`);
    }
    let ended = false;
    const events = readEvents(res.body);
    try {
      for (;;) {
        let next: IteratorResult<EventSourceMessage>;
        try {
          next = await events.next();
        } catch (err) {
          signal?.throwIfAborted();
          // The connection broke mid-body (fetch reports it as a TypeError: "terminated", "network error").
          throw new ConciergeStreamError('The connection broke before the turn ended.', { cause: err });
        }
        if (next.done) break;
        const message = next.value;
        // An abort may race a chunk already read: nothing is handed out after it.
        signal?.throwIfAborted();
        if (!message.event || !EVENT_NAMES.has(message.event)) continue;
        ended = message.event === 'done' || message.event === 'error';
        yield { event: message.event, data: JSON.parse(message.data) as unknown } as TConciergeEvent;
      }
    } finally {
      // Leaving early (a `break`, an abort) cancels the body: the connection closes and the turn stops.
      await events.return(undefined);
    }
    signal?.throwIfAborted();
    // A turn always ends with `done` or `error`: a body that stops before is a cut connection, and the
    // answer so far is incomplete.
    if (!ended) throw new ConciergeStreamError('The stream ended before the turn did (no done or error event).');
  }
}
