import type { IncomingMessage, ServerResponse } from 'node:http';

const EXPOSED = 'X-Request-Id, X-Service-Environment, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After';

/**
 * Embed routes are called cross-origin from restaurants' pages. The origin is echoed on every answer
 * (errors included, so the widget can show why it was refused); whether the call is allowed is decided
 * by the publishable key's allow-list, server-side. No credentials: keys travel in a header, never cookies.
 */
export function applyEmbedCors(req: IncomingMessage, res: ServerResponse): void {
  const origin = req.headers.origin;
  res.setHeader('Vary', 'Origin');
  if (!origin) return;
  res.setHeader('Access-Control-Allow-Origin', origin);
  res.setHeader('Access-Control-Expose-Headers', EXPOSED);
}

/** A preflight needs no key: browsers never send credentials with one. */
export function answerPreflight(res: ServerResponse): void {
  res.setHeader('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
  res.setHeader('Access-Control-Allow-Headers', 'Authorization, Content-Type, Idempotency-Key, Last-Event-ID');
  res.setHeader('Access-Control-Max-Age', '600');
  res.statusCode = 204;
  res.end();
}
