import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { type Readable, Transform } from 'node:stream';
import { Pool, type Dispatcher } from 'undici';
import { INTERNAL_TOKEN_HEADER, VISITOR_HEADER } from '@partner/auth';
import { AppError } from '@partner/contracts';
import { deadlinePassed, whenAnswerClosed } from '@partner/http';
import type { ServiceName } from '../routing/route-table.js';

// Hop-by-hop headers (RFC 9110 7.6.1) and what only the gateway may set never cross the hop.
const NOT_FORWARDED = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  // The gateway answered the expectation itself (100 Continue once it accepted the request), and
  // undici refuses to send a request that carries one.
  'expect',
  'host',
  'authorization',
  'cookie',
  INTERNAL_TOKEN_HEADER,
  VISITOR_HEADER,
  'x-request-id',
  // The gateway's own span continues a caller's trace; the service behind it continues the gateway's
  // (set by the tracing when it is on), never a context the caller made up.
  'traceparent',
  'tracestate',
  'baggage',
]);
/** Answers up to this size are read whole and sent in one write; anything longer, or unsized, streams. */
const BUFFERED_BODY_LIMIT = 64 * 1024;
/** Why an upstream answer is dropped: the gateway's request deadline answered the client already. */
const deadlineAnswered = () => new Error('the request deadline answered first');
const NOT_RETURNED = new Set(['connection', 'keep-alive', 'transfer-encoding', 'trailer', 'upgrade', 'proxy-authenticate']);

function forwardedHeaders(headers: IncomingHttpHeaders, extra: Record<string, string>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const name in headers) {
    const value = headers[name];
    if (value !== undefined && !NOT_FORWARDED.has(name)) out[name] = value;
  }
  return Object.assign(out, extra);
}

/**
 * Keep-alive connection pools to each service, driven through undici's dispatch handlers: no stream
 * objects, promises or abort signals per request. A small answer of known length leaves in one write,
 * headers and body together; anything else (an SSE stream, a file) streams chunk by chunk with
 * backpressure, never buffered. A client that goes away aborts the upstream request, which a
 * streaming service sees as a closed connection.
 */
/** Raised by the body counter: the request body went past the limit while it was being forwarded. */
class BodyTooLarge extends Error {}

/**
 * The request body as it is forwarded, counted: a body without a Content-Length (chunked) is refused
 * once it passes the limit, like a declared one, and never reaches the service whole.
 */
function countedBody(req: IncomingMessage, maxBytes: number): Readable {
  let seen = 0;
  return req.pipe(
    new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        seen += chunk.length;
        callback(seen > maxBytes ? new BodyTooLarge(`the body passed ${maxBytes} bytes`) : null, chunk);
      },
    }),
  );
}

/** Told of every forwarded request: the service started its answer after `seconds`, or failed to. */
type UpstreamObserver = (service: ServiceName, outcome: 'answered' | 'error', seconds: number) => void;

export class ServiceProxy {
  private readonly pools: Record<ServiceName, Pool>;

  /**
   * `upstreamTimeoutMs`: how long a service may take to start its answer. Services answer 503 at their
   * own request deadline; this is a little longer, for a service that cannot answer at all (frozen,
   * partitioned): the client then gets 503 with Retry-After instead of waiting without end.
   */
  constructor(
    origins: Record<ServiceName, string>,
    private readonly maxBodyBytes: number,
    upstreamTimeoutMs: number,
    private readonly observe?: UpstreamObserver,
  ) {
    const pool = (origin: string) =>
      new Pool(origin, {
        connections: 128,
        keepAliveTimeout: 30_000,
        headersTimeout: upstreamTimeoutMs,
        // Streams (SSE) may idle between events; services send heartbeats well inside this.
        bodyTimeout: 120_000,
      });
    this.pools = { catalog: pool(origins.catalog), webhooks: pool(origins.webhooks), concierge: pool(origins.concierge) };
  }

  forward(service: ServiceName, req: IncomingMessage, res: ServerResponse, extraHeaders: Record<string, string>): Promise<void> {
    return new Promise((resolve, reject) => {
      let upstream: Dispatcher.DispatchController | null = null;
      let answered = false;
      let buffered: Buffer[] | null = null;
      let settled = false;
      // One listener shared with the deadline and the observers, left in place once settled.
      whenAnswerClosed(res, () => {
        if (!settled && !res.writableFinished) upstream?.abort(new Error('the client went away'));
      });
      const done = () => {
        settled = true;
        resolve();
      };
      const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
      const started = this.observe ? performance.now() : 0;
      this.pools[service].dispatch(
        {
          method: req.method!,
          path: req.url!,
          headers: forwardedHeaders(req.headers, extraHeaders),
          body: hasBody ? countedBody(req, this.maxBodyBytes) : null,
        },
        {
          onRequestStart: (controller) => {
            upstream = controller;
            if (res.destroyed) controller.abort(new Error('the client went away'));
          },
          onResponseStart: (controller, statusCode, headers) => {
            // An interim answer (103 Early Hints) is not the answer: the final one follows.
            if (statusCode < 200) return;
            answered = true;
            this.observe?.(service, 'answered', (performance.now() - started) / 1000);
            // The gateway's request deadline answered for this request already: nobody is waiting.
            if (deadlinePassed(res)) {
              controller.abort(deadlineAnswered());
              return;
            }
            for (const name in headers) {
              if (!NOT_RETURNED.has(name)) res.setHeader(name, headers[name]!);
            }
            res.statusCode = statusCode;
            if (Number(headers['content-length'] ?? NaN) <= BUFFERED_BODY_LIMIT) buffered = [];
            // A stream's headers leave with its first chunk when that came in the same read (an SSE
            // stream's first event), in one write; else at the end of this turn, not held back.
            else {
              setImmediate(() => {
                if (deadlinePassed(res)) controller.abort(deadlineAnswered());
                else if (!res.headersSent && !res.destroyed) res.flushHeaders();
              });
            }
          },
          onResponseData: (controller, chunk) => {
            if (buffered) buffered.push(chunk);
            else if (!res.write(chunk)) {
              controller.pause();
              res.once('drain', () => controller.resume());
            }
          },
          onResponseEnd: () => {
            if (buffered) res.end(buffered.length === 1 ? buffered[0] : Buffer.concat(buffered));
            else res.end();
            done();
          },
          onResponseError: (_controller, err) => {
            settled = true;
            if (!answered && !res.destroyed) this.observe?.(service, 'error', (performance.now() - started) / 1000);
            if (res.destroyed || deadlinePassed(res)) return resolve();
            // Mid-body the status is out: all that is left is to cut the response short.
            if (answered) {
              res.destroy();
              return resolve();
            }
            if (err instanceof BodyTooLarge || err.cause instanceof BodyTooLarge) {
              return reject(new AppError('payload_too_large', `Request bodies are limited to ${this.maxBodyBytes} bytes.`, { cause: err }));
            }
            reject(new AppError('service_unavailable', 'The service behind this route is unavailable. Retry shortly.', { cause: err }));
          },
        },
      );
    });
  }

  async close(): Promise<void> {
    await Promise.all(Object.values(this.pools).map((pool) => pool.close()));
  }
}
