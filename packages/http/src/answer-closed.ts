import type { ServerResponse } from 'node:http';

const CLOSERS = Symbol('partner.answerClosers');

/** A response that carries what its one `close` listener runs. */
interface WithClosers {
  [CLOSERS]?: (() => void)[];
}

/**
 * Runs `closer` once the connection is done with the answer (sent whole, or cut by its client); at
 * once if it is done already (a client gone while the request waited, for an Idempotency-Key say).
 * Every closer of a response shares one `close` listener: a second listener on every request (the deadline's
 * and the observers') cost the gateway more than half a microsecond a request in profiles, an
 * emitter's listener array and `once`'s wrapper among it (docs/benchmarks.md, "Observability overhead").
 */
export function whenAnswerClosed(res: ServerResponse, closer: () => void): void {
  if (res.closed) return closer();
  const held = (res as WithClosers)[CLOSERS];
  if (held) {
    held.push(closer);
    return;
  }
  const closers = [closer];
  // On the response itself, not in a WeakMap: every response gets the property at once, in the same
  // order, so they keep one shape, and a lookup per closer stays a property load.
  (res as WithClosers)[CLOSERS] = closers;
  // `on`, not `once`: a response closes once, and `once` would wrap the listener for each request.
  res.on('close', () => {
    for (const run of closers) run();
  });
}
