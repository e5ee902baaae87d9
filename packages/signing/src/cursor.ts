import { createHash } from 'node:crypto';
import { AppError } from '@partner/contracts';
import type { HmacKey } from './hmac.js';

// Cursors are opaque to clients: base64url(JSON) + "." + base64url(HMAC-SHA256). They carry the
// position and a binding to what produced them (owner, filters), so they cannot be forged, edited,
// or replayed against another listing.

export function encodeCursor(key: HmacKey, payload: object): string {
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${body}.${key.signToString(body)}`;
}

/** The payload of a cursor this secret signed; `400 invalid_cursor` for anything else. */
export function decodeCursor(key: HmacKey, cursor: string): Record<string, unknown> {
  const invalid = () =>
    new AppError('invalid_cursor', 'The cursor is not valid. Pass meta.nextCursor exactly as returned.', { param: 'cursor' });
  const [body, mac, extra] = cursor.split('.');
  if (!body || !mac || extra !== undefined || cursor.length > 2048) throw invalid();
  if (!key.verify(body, mac)) throw invalid();
  try {
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as unknown;
    if (payload && typeof payload === 'object' && !Array.isArray(payload)) return payload as Record<string, unknown>;
  } catch {
    // fall through
  }
  throw invalid();
}

/** What a listing cursor is bound to: its listing, whose data it pages (owner, restaurant), its filters. */
export interface CursorBinding {
  listing: string;
  scope: string;
  filters: unknown[];
}

const fingerprint = (filters: unknown[]) => createHash('sha256').update(JSON.stringify(filters)).digest('base64url').slice(0, 16);

/** A cursor for the next page: the position, bound to the listing, scope and filters that produced it. */
export function encodeListCursor(key: HmacKey, binding: CursorBinding, position: Record<string, string>): string {
  return encodeCursor(key, { l: binding.listing, s: binding.scope, f: fingerprint(binding.filters), p: position });
}

/**
 * The position a cursor carries. Another listing's or another scope's cursor (someone else's) is
 * `400 invalid_cursor`; the same listing with other filters is `400 cursor_filter_mismatch` (spec 4.2).
 */
export function decodeListCursor(key: HmacKey, cursor: string, binding: CursorBinding): Record<string, string> {
  const payload = decodeCursor(key, cursor);
  const position = payload.p as Record<string, unknown> | undefined;
  const valid = position && typeof position === 'object' && Object.values(position).every((value) => typeof value === 'string');
  if (payload.l !== binding.listing || payload.s !== binding.scope || !valid) {
    throw new AppError('invalid_cursor', 'This cursor belongs to another listing. Pass meta.nextCursor exactly as returned.', {
      param: 'cursor',
    });
  }
  if (payload.f !== fingerprint(binding.filters)) {
    throw new AppError(
      'cursor_filter_mismatch',
      'This cursor was issued for other filters. Repeat the filters of the first page with it.',
      {
        param: 'cursor',
      },
    );
  }
  return position as Record<string, string>;
}
