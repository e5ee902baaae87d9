import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { LRUCache } from 'lru-cache';
import type { Principal } from './principal.js';

// Asymmetric so that only the gateway can mint tokens: services hold the public key only, and a
// compromised service cannot impersonate the gateway towards its neighbours.
const ALGORITHM = 'ES256';
const ISSUER = 'gateway';
const LIFETIME_SECONDS = 60;

export const INTERNAL_TOKEN_HEADER = 'x-internal-token';
/**
 * The browser visitor behind an embed request, as the gateway saw it (a hash of the client address):
 * set by the gateway only, never forwarded from a client.
 */
export const VISITOR_HEADER = 'x-partner-visitor';

export function generateInternalKeyPair(): { privateKey: string; publicKey: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ec', {
    namedCurve: 'P-256',
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  return { privateKey, publicKey };
}

// Parsing a PEM costs more than the signature itself: parse each key once per process (a process
// holds one or two; the bound is for tests, which make many).
const parsedKeys = new LRUCache<string, KeyObject>({ max: 64 });
function keyObject(pem: string, kind: 'private' | 'public'): KeyObject {
  let key = parsedKeys.get(pem);
  if (!key) {
    key = kind === 'private' ? createPrivateKey(pem) : createPublicKey(pem);
    parsedKeys.set(pem, key);
  }
  return key;
}

interface Claims {
  prn: Principal;
}

export function signInternalToken(privateKey: string, principal: Principal, audience: string): string {
  return jwt.sign({ prn: principal } satisfies Claims, keyObject(privateKey, 'private'), {
    algorithm: ALGORITHM,
    audience,
    issuer: ISSUER,
    expiresIn: LIFETIME_SECONDS,
  });
}

/** The principal inside a valid token for `audience`; throws when the token is bad in any way. */
export function verifyInternalToken(publicKey: string, token: string, audience: string, nowMs: number = Date.now()): Principal {
  return verifyClaims(publicKey, token, audience, nowMs).prn;
}

/** The verified claims, with the last millisecond at which the token is still good. */
function verifyClaims(publicKey: string, token: string, audience: string, nowMs: number): Claims & { goodUntilMs: number } {
  const payload = jwt.verify(token, keyObject(publicKey, 'public'), {
    algorithms: [ALGORITHM],
    audience,
    issuer: ISSUER,
    clockTimestamp: Math.floor(nowMs / 1000),
    // However it was minted, no token is good for longer than the lifetime we give them.
    maxAge: LIFETIME_SECONDS,
  });
  if (typeof payload !== 'object' || !payload || !('prn' in payload)) throw new Error('token carries no principal');
  if (typeof payload.exp !== 'number' || typeof payload.iat !== 'number') throw new Error('token has no expiry');
  // A token minted with a longer `exp` still dies LIFETIME_SECONDS after it was issued.
  const goodUntilMs = Math.min(payload.exp, payload.iat + LIFETIME_SECONDS) * 1000;
  return { prn: (payload as unknown as Claims).prn, goodUntilMs };
}

/**
 * Signing and verifying ES256 costs more than the rest of a typical request, and a key sends many
 * requests a minute. The gateway reuses a token for a principal while it has more than half its
 * lifetime left; a service remembers a token it verified until it expires, or until it is older than
 * the lifetime we give tokens, whichever comes first. Nothing is trusted for longer than either allows.
 */
export class InternalTokenSigner {
  private readonly issued: LRUCache<string, string>;
  /** A principal's cache id, kept per principal object: the gateway reuses one per cached key. */
  private readonly ids = new WeakMap<Principal, string>();

  constructor(
    private readonly privateKey: string,
    now: () => number = Date.now,
  ) {
    this.issued = new LRUCache({ max: MAX_CACHED, ttl: (LIFETIME_SECONDS * 1000) / 2, ttlResolution: 0, perf: { now } });
  }

  tokenFor(principal: Principal, audience: string): string {
    let principalId = this.ids.get(principal);
    if (principalId === undefined) this.ids.set(principal, (principalId = JSON.stringify(principal)));
    const id = `${audience}|${principalId}`;
    let token = this.issued.get(id);
    if (token === undefined) {
      token = signInternalToken(this.privateKey, principal, audience);
      this.issued.set(id, token);
    }
    return token;
  }
}

export class InternalTokenVerifier {
  private readonly verified: LRUCache<string, Principal>;

  constructor(
    private readonly publicKey: string,
    private readonly audience: string,
    private readonly now: () => number = Date.now,
  ) {
    this.verified = new LRUCache({ max: MAX_CACHED, ttlResolution: 0, perf: { now } });
  }

  verify(token: string): Principal {
    const cached = this.verified.get(token);
    if (cached) return cached;
    const now = this.now();
    const { prn, goodUntilMs } = verifyClaims(this.publicKey, token, this.audience, now);
    const ttl = goodUntilMs - now;
    if (ttl > 0) this.verified.set(token, prn, { ttl });
    return prn;
  }
}

const MAX_CACHED = 10_000;
