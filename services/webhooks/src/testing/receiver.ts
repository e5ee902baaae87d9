import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  /** The path it was sent to (a receiver's endpoints differ by path). */
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Answer {
  status: number;
  headers?: Record<string, string>;
  /** Answers this long after the request arrived (after `until`, when given). */
  afterMs?: number;
  /** Answers once this has resolved: a test decides when an attempt ends. */
  until?: Promise<void>;
}

/** A receiver on loopback that records every POST and answers as `answer` says (204 unless told). */
export async function startReceiver(answer: (received: Received, earlier: Received[]) => Answer = () => ({ status: 204 })) {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const entry = { path: req.url ?? '', headers: req.headers, body };
      const { status, headers, afterMs, until } = answer(entry, [...received]);
      received.push(entry);
      void (until ?? Promise.resolve()).then(() => setTimeout(() => res.writeHead(status, headers).end(), afterMs ?? 0).unref());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: (path: string) => `${base}${path}`,
    received,
    /** What arrived at one path. */
    at: (path: string) => received.filter((entry) => entry.path === path),
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
