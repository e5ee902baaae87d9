import { generateKeyPairSync } from 'node:crypto';
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

interface Claims {
  prn: Principal;
}

export function signInternalToken(privateKey: string, principal: Principal, audience: string): string {
  return jwt.sign({ prn: principal } satisfies Claims, privateKey, {
    algorithm: ALGORITHM,
    audience,
    issuer: ISSUER,
    expiresIn: LIFETIME_SECONDS,
  });
}

/** The principal inside a valid token for `audience`; throws when the token is bad in any way. */
export function verifyInternalToken(publicKey: string, token: string, audience: string): Principal {
  const payload = jwt.verify(token, publicKey, { algorithms: [ALGORITHM], audience, issuer: ISSUER });
  if (typeof payload !== 'object' || !payload || !('prn' in payload)) throw new Error('token carries no principal');
  return (payload as unknown as Claims).prn;
}
