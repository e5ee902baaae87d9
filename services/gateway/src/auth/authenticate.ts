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

/** Why a key was refused: for the metrics only, every reason answers the same 401. */
export type AuthFailureReason = 'missing' | 'malformed' | 'unknown' | 'revoked' | 'expired';

/** Why a key was refused, as the refusal's `cause`: a plain value, not an Error (no stack captured per refusal). */
export class AuthFailure {
  constructor(readonly reason: AuthFailureReason) {}
}

const refused = (reason: AuthFailureReason, message: string) =>
  new AppError('invalid_api_key', message, { cause: new AuthFailure(reason) });

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
  beforeQuery?: () => Promise<unknown>,
): Promise<AuthenticatedKey> {
  if (!token) {
    const header = req.headers.authorization;
    throw header
      ? refused('malformed', `Malformed Authorization header. ${SEND_A_KEY}`)
      : refused('missing', `No API key provided. ${SEND_A_KEY}`);
  }
  if (!parseApiKey(token)) throw refused('malformed', INVALID);
  const keyHash = hashApiKey(token);
  const record = cache.cached(keyHash) ?? (await cache.lookup(keyHash, beforeQuery));
  if (!record) throw refused('unknown', INVALID);
  if (record.key.revoked_at) throw refused('revoked', INVALID);
  if (record.key.expires_at && record.key.expires_at <= now()) throw refused('expired', INVALID);
  return record;
}
