import { createParser } from 'eventsource-parser';

export interface StreamedEvent {
  event: string;
  data: any;
  at: number;
}

export interface StreamedResponse {
  status: number;
  headers: Headers;
  events: StreamedEvent[];
  /** The JSON body when the answer was not a stream (an error before it started). */
  json: any;
}

/** POSTs and reads the Server-Sent Events as they arrive (a real streaming client, no buffering). */
export async function streamChat(
  url: string,
  headers: Record<string, string>,
  body: unknown,
  /** `onEvent` is told of each event as it arrives, before the stream ends. */
  options: { signal?: AbortSignal; onEvent?: (event: StreamedEvent) => void } = {},
): Promise<StreamedResponse> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
    signal: options.signal,
  });
  const events: StreamedEvent[] = [];
  if (!res.headers.get('content-type')?.startsWith('text/event-stream')) {
    return { status: res.status, headers: res.headers, events, json: (await res.json()) as any };
  }
  const parser = createParser({
    onEvent: (message) => {
      const event = { event: message.event ?? 'message', data: JSON.parse(message.data), at: Date.now() };
      events.push(event);
      options.onEvent?.(event);
    },
  });
  const decoder = new TextDecoder();
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) parser.feed(decoder.decode(chunk, { stream: true }));
  return { status: res.status, headers: res.headers, events, json: null };
}
