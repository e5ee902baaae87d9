import type { IncomingMessage } from 'node:http';
import { environmentFromPrefix, hashApiKey, parseApiKey } from '@partner/auth';
import { AppError } from '@partner/contracts';
import type { TEnvironment } from '@partner/contracts';
import type { AuthenticatedKey, KeyCache } from './key-cache.js';

const SEND_A_KEY = 'Send `Authorization: Bearer <API_KEY>` with an active key from your dashboard.';
const INVALID = `Invalid API key. ${SEND_A_KEY}`;

/** The bearer token of the Authorization header, or null when the header is missing or not Bearer. */
export function bearerToken(req: IncomingMessage): string | null {
  const header = req.headers.authorization;
  if (!header) return null;
  const match = /^Bearer[ ]+(\S+)[ ]*$/i.exec(header);
  return match ? match[1]! : null;
}

/** What environment to report on a response, even one refusing the key: what the bearer token claims. */
export function claimedEnvironment(token: string | null): TEnvironment {
  return (token && environmentFromPrefix(token)) || 'live';
}

/**
 * Missing, malformed, unknown, revoked and expired keys are all the same `401 invalid_api_key`: an
 * attacker learns nothing about which keys exist. Malformed keys (wrong shape or checksum) are refused
 * before any lookup. `token` is the request's `bearerToken`.
 */
export async function authenticate(
  req: IncomingMessage,
  token: string | null,
  cache: KeyCache,
  now: () => Date,
  beforeQuery?: () => Promise<void>,
): Promise<AuthenticatedKey> {
  if (!token) {
    const header = req.headers.authorization;
    throw new AppError('invalid_api_key', header ? `Malformed Authorization header. ${SEND_A_KEY}` : `No API key provided. ${SEND_A_KEY}`);
  }
  if (!parseApiKey(token)) throw new AppError('invalid_api_key', INVALID);
  const keyHash = hashApiKey(token);
  const record = cache.cached(keyHash) ?? (await cache.lookup(keyHash, beforeQuery));
  if (!record || record.key.revoked_at || (record.key.expires_at && record.key.expires_at <= now())) {
    throw new AppError('invalid_api_key', INVALID);
  }
  return record;
}
