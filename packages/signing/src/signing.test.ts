import { describe, expect, it } from 'vitest';
import { AppError } from '@partner/contracts';
import { decodeListCursor, encodeListCursor } from './cursor.js';
import { HmacKey } from './hmac.js';
import { ViewTokens } from './view-token.js';

const key = new HmacKey('a-secret-of-thirty-two-characters-or-more');
const other = new HmacKey('another-secret-of-thirty-two-characters!!');

function codeOf(run: () => unknown): string {
  try {
    run();
  } catch (err) {
    if (err instanceof AppError) return err.code;
    throw err;
  }
  throw new Error('expected an AppError, nothing was thrown');
}

describe('HmacKey', () => {
  it('verifies its own signature and nothing else', () => {
    const signature = key.signToString('message');
    expect(key.verify('message', signature)).toBe(true);
    expect(key.verify('messagE', signature)).toBe(false);
    expect(other.verify('message', signature)).toBe(false);
    expect(key.verify('message', signature.slice(0, -2))).toBe(false);
    expect(key.verify('message', '')).toBe(false);
  });

  it('accepts one spelling of a signature only: none that decodes to the same bytes', () => {
    const signature = key.signToString('message');
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    // 32 bytes in 43 characters: the last one carries 2 bits no byte uses.
    const last = alphabet.indexOf(signature.at(-1)!);
    const sameBytes = [
      signature.slice(0, -1) + alphabet[last ^ 1],
      `${signature}=`,
      `${signature.slice(0, 10)}!${signature.slice(10)}`,
      `${signature.slice(0, 10)} ${signature.slice(10)}`,
    ];
    for (const spelling of sameBytes) {
      expect(Buffer.from(spelling, 'base64url').equals(Buffer.from(signature, 'base64url'))).toBe(true);
      expect(key.verify('message', spelling)).toBe(false);
    }
  });
});

describe('list cursors', () => {
  const binding = { listing: 'items', scope: 'rst_1', filters: ['published'] };

  it('round-trips the position for the same listing, scope and filters', () => {
    const cursor = encodeListCursor(key, binding, { id: 'itm_1' });
    expect(decodeListCursor(key, cursor, binding)).toEqual({ id: 'itm_1' });
  });

  it('refuses a cursor signed with another key, edited, or malformed as invalid_cursor', () => {
    const cursor = encodeListCursor(key, binding, { id: 'itm_1' });
    expect(codeOf(() => decodeListCursor(other, cursor, binding))).toBe('invalid_cursor');
    expect(codeOf(() => decodeListCursor(key, `x${cursor}`, binding))).toBe('invalid_cursor');
    expect(codeOf(() => decodeListCursor(key, 'garbage', binding))).toBe('invalid_cursor');
    expect(codeOf(() => decodeListCursor(key, `${cursor}.extra`, binding))).toBe('invalid_cursor');
  });

  it('tells another scope (someone else) from other filters', () => {
    const cursor = encodeListCursor(key, binding, { id: 'itm_1' });
    expect(codeOf(() => decodeListCursor(key, cursor, { ...binding, scope: 'rst_2' }))).toBe('invalid_cursor');
    expect(codeOf(() => decodeListCursor(key, cursor, { ...binding, filters: ['draft'] }))).toBe('cursor_filter_mismatch');
  });
});

describe('view tokens', () => {
  const tokens = new ViewTokens(key, 60_000);
  const now = new Date('2026-11-23T12:00:00Z');

  it('holds for its key and item until it expires', () => {
    const token = tokens.issue('key_1', 'itm_1', now);
    expect(tokens.isValid(token, 'key_1', 'itm_1', new Date(now.getTime() + 59_999))).toBe(true);
    expect(tokens.isValid(token, 'key_1', 'itm_1', new Date(now.getTime() + 60_000))).toBe(false);
    expect(tokens.isValid(token, 'key_2', 'itm_1', now)).toBe(false);
    expect(tokens.isValid(token, 'key_1', 'itm_2', now)).toBe(false);
  });

  it('is not valid under another purpose key, nor when its expiry is edited', () => {
    const token = tokens.issue('key_1', 'itm_1', now);
    expect(new ViewTokens(other, 60_000).isValid(token, 'key_1', 'itm_1', now)).toBe(false);
    const [expires, mac] = token.split('.');
    expect(tokens.isValid(`${Number(expires) + 1000}.${mac}`, 'key_1', 'itm_1', now)).toBe(false);
    expect(tokens.isValid('not-a-token', 'key_1', 'itm_1', now)).toBe(false);
  });
});
