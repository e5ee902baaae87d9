import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { Principal } from './principal.js';

// Asymmetric so that only the gateway can mint tokens: services hold the public key only, and a
// compromised service cannot impersonate the gateway towards its neighbours.
const ALGORITHM = 'ES256';
const ISSUER = 'gateway';
const LIFETIME_SECONDS = 60;

export const INTERNAL_TOKEN_HEADER = 'x-internal-token';

export function generateInternalKeyPair(): { privateKey: string; publicKey: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ec', {
    namedCurve: 'P-256',
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  return { privateKey, publicKey };
}

// Parsing a PEM costs more than the signature itself: parse each key once per process.
const parsedKeys = new Map<string, KeyObject>();
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
  const payload = jwt.verify(token, keyObject(publicKey, 'public'), {
    algorithms: [ALGORITHM],
    audience,
    issuer: ISSUER,
    clockTimestamp: Math.floor(nowMs / 1000),
  });
  if (typeof payload !== 'object' || !payload || !('prn' in payload)) throw new Error('token carries no principal');
  return (payload as unknown as Claims).prn;
}

/**
 * Signing and verifying ES256 costs more than the rest of a typical request, and a key sends many
 * requests a minute. The gateway reuses a token for a principal while it has more than half its
 * lifetime left; a service remembers a token it verified until it expires. Nothing is trusted for
 * longer than the token itself says.
 */
export class InternalTokenSigner {
  private readonly issued = new Map<string, { token: string; reuseUntil: number }>();

  constructor(
    private readonly privateKey: string,
    private readonly now: () => number = Date.now,
  ) {}

  tokenFor(principal: Principal, audience: string): string {
    const id = `${audience}|${JSON.stringify(principal)}`;
    const cached = this.issued.get(id);
    const now = this.now();
    if (cached && cached.reuseUntil > now) return cached.token;
    const token = signInternalToken(this.privateKey, principal, audience);
    if (this.issued.size >= MAX_CACHED) this.issued.delete(this.issued.keys().next().value!);
    this.issued.set(id, { token, reuseUntil: now + (LIFETIME_SECONDS * 1000) / 2 });
    return token;
  }
}

export class InternalTokenVerifier {
  private readonly verified = new Map<string, { principal: Principal; expiresAt: number }>();

  constructor(
    private readonly publicKey: string,
    private readonly audience: string,
    private readonly now: () => number = Date.now,
  ) {}

  verify(token: string): Principal {
    const now = this.now();
    const cached = this.verified.get(token);
    if (cached && cached.expiresAt > now) return cached.principal;
    const principal = verifyInternalToken(this.publicKey, token, this.audience, now);
    const { exp } = jwt.decode(token) as { exp: number };
    if (this.verified.size >= MAX_CACHED) this.verified.delete(this.verified.keys().next().value!);
    this.verified.set(token, { principal, expiresAt: exp * 1000 });
    return principal;
  }
}

const MAX_CACHED = 10_000;
