import type { IncomingMessage } from 'node:http';
import { createParser } from 'eventsource-parser';

export interface StreamedEvent {
  event: string;
  data: any;
}

/** What a streaming client saw. */
export interface StreamRead {
  status: number;
  headers: Record<string, string>;
  events: StreamedEvent[];
  /** SSE comment lines (heartbeats). */
  comments: string[];
  /** The JSON body of an answer that was no stream (an error before the stream started). */
  body: any;
}

export const emptyRead = (): StreamRead => ({ status: 0, headers: {}, events: [], comments: [], body: null });

/**
 * A supertest/superagent parser that reads an event stream chunk by chunk as it arrives, through the
 * same parser a browser-side client uses, into `read`. `onEvent` sees each event the moment it is parsed.
 */
export function readEventStream(read: StreamRead, onEvent: (event: StreamedEvent) => void = () => {}) {
  return (res: IncomingMessage, done: (err: Error | null, body: StreamRead) => void): void => {
    read.status = res.statusCode ?? 0;
    read.headers = res.headers as Record<string, string>;
    const streaming = String(res.headers['content-type'] ?? '').startsWith('text/event-stream');
    const parser = createParser({
      onEvent: (message) => {
        const event = { event: message.event ?? 'message', data: JSON.parse(message.data) };
        read.events.push(event);
        onEvent(event);
      },
      onComment: (comment) => read.comments.push(comment),
    });
    let raw = '';
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => (streaming ? parser.feed(chunk) : (raw += chunk)));
    res.on('end', () => {
      if (!streaming && raw) read.body = JSON.parse(raw);
      done(null, read);
    });
    res.on('error', (err) => done(err, read));
  };
}
