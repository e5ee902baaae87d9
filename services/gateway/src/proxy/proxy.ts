import type { IncomingHttpHeaders } from 'node:http';
import { pipeline } from 'node:stream/promises';
import type { Request, Response } from 'express';
import { Pool } from 'undici';
import { INTERNAL_TOKEN_HEADER } from '@partner/auth';
import { AppError } from '@partner/kit';
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
  'host',
  'authorization',
  'cookie',
  INTERNAL_TOKEN_HEADER,
  'x-request-id',
]);
/** Answers up to this size are read whole and sent in one write; anything longer, or unsized, streams. */
const BUFFERED_BODY_LIMIT = 64 * 1024;
const NOT_RETURNED = new Set(['connection', 'keep-alive', 'transfer-encoding', 'trailer', 'upgrade', 'proxy-authenticate']);

function forwardedHeaders(headers: IncomingHttpHeaders, extra: Record<string, string>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !NOT_FORWARDED.has(name)) out[name] = value;
  }
  return { ...out, ...extra };
}

/**
 * Keep-alive connection pools to each service. Request and response bodies are piped, never
 * buffered, so an SSE stream reaches the client event by event; a client that goes away aborts the
 * upstream request, which a streaming service sees as a closed connection.
 */
export class ServiceProxy {
  private readonly pools: Record<ServiceName, Pool>;

  constructor(origins: Record<ServiceName, string>) {
    const pool = (origin: string) =>
      new Pool(origin, {
        connections: 128,
        keepAliveTimeout: 30_000,
        headersTimeout: 30_000,
        // Streams (SSE) may idle between events; services send heartbeats well inside this.
        bodyTimeout: 120_000,
      });
    this.pools = { catalog: pool(origins.catalog), webhooks: pool(origins.webhooks), concierge: pool(origins.concierge) };
  }

  async forward(service: ServiceName, req: Request, res: Response, extraHeaders: Record<string, string>): Promise<void> {
    const abort = new AbortController();
    const onClose = () => {
      if (!res.writableFinished) abort.abort();
    };
    res.once('close', onClose);
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    let upstream: Awaited<ReturnType<Pool['request']>>;
    try {
      upstream = await this.pools[service].request({
        method: req.method as 'GET',
        path: req.originalUrl,
        headers: forwardedHeaders(req.headers, extraHeaders),
        body: hasBody ? req : null,
        signal: abort.signal,
      });
    } catch (err) {
      res.off('close', onClose);
      if (abort.signal.aborted) return;
      throw new AppError('service_unavailable', 'The service behind this route is unavailable. Retry shortly.', { cause: err });
    }
    for (const [name, value] of Object.entries(upstream.headers)) {
      if (value !== undefined && !NOT_RETURNED.has(name)) res.setHeader(name, value);
    }
    res.status(upstream.statusCode);
    // pipeline destroys both streams if either fails; an error the body raises after that (an abort
    // arriving late) must not go unheard, or it would take the process down.
    upstream.body.on('error', () => {});
    try {
      const length = Number(upstream.headers['content-length'] ?? NaN);
      if (length <= BUFFERED_BODY_LIMIT) {
        // A small answer of known length leaves in one write, headers and body together.
        res.end(Buffer.from(await upstream.body.arrayBuffer()));
      } else {
        // A stream (SSE) or a large file: headers now, then the body as it arrives.
        res.flushHeaders();
        await pipeline(upstream.body, res);
      }
    } catch {
      // The client left or the service dropped mid-body; either way this response is over.
    } finally {
      res.off('close', onClose);
    }
  }

  async close(): Promise<void> {
    await Promise.all(Object.values(this.pools).map((pool) => pool.close()));
  }
}
