import { createHmac, timingSafeEqual } from 'node:crypto';
import { AppError } from '@partner/kit';

// Cursors are opaque to clients: base64url(JSON) + "." + base64url(HMAC-SHA256). They carry the
// position and a binding to what produced them (owner, filters), so they cannot be forged, edited,
// or replayed against another listing.

function sign(secret: string, body: string): Buffer {
  return createHmac('sha256', secret).update(body).digest();
}

export function encodeCursor(secret: string, payload: object): string {
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${body}.${sign(secret, body).toString('base64url')}`;
}

/** The payload of a cursor this secret signed; `400 invalid_cursor` for anything else. */
export function decodeCursor(secret: string, cursor: string): Record<string, unknown> {
  const invalid = () =>
    new AppError('invalid_cursor', 'The cursor is not valid. Pass meta.nextCursor exactly as returned.', { param: 'cursor' });
  const [body, mac, extra] = cursor.split('.');
  if (!body || !mac || extra !== undefined || cursor.length > 2048) throw invalid();
  const expected = sign(secret, body);
  const given = Buffer.from(mac, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid();
  try {
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as unknown;
    if (payload && typeof payload === 'object' && !Array.isArray(payload)) return payload as Record<string, unknown>;
  } catch {
    // fall through
  }
  throw invalid();
}
