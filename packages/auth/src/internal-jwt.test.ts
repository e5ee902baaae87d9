import jwt from 'jsonwebtoken';
import { describe, expect, it } from 'vitest';
import { generateInternalKeyPair, signInternalToken, verifyInternalToken } from './internal-jwt.js';
import type { Principal } from './principal.js';

const pair = generateInternalKeyPair();
const principal: Principal = {
  kind: 'key',
  keyId: 'key_abc',
  keyType: 'secret',
  environment: 'live',
  scopes: ['menu:read'],
  owner: { kind: 'restaurant', id: 'rst_abc' },
  requestId: 'req_abc',
};

describe('internal JWT', () => {
  it('round-trips the principal for its audience', () => {
    expect(verifyInternalToken(pair.publicKey, signInternalToken(pair.privateKey, principal, 'catalog'), 'catalog')).toEqual(principal);
  });

  it('refuses another audience, another key pair, an expired token and a symmetric forgery', () => {
    const token = signInternalToken(pair.privateKey, principal, 'catalog');
    expect(() => verifyInternalToken(pair.publicKey, token, 'webhooks')).toThrow();
    expect(() => verifyInternalToken(generateInternalKeyPair().publicKey, token, 'catalog')).toThrow();
    const expired = jwt.sign({ prn: principal, exp: Math.floor(Date.now() / 1000) - 10 }, pair.privateKey, {
      algorithm: 'ES256',
      audience: 'catalog',
      issuer: 'gateway',
    });
    expect(() => verifyInternalToken(pair.publicKey, expired, 'catalog')).toThrow();
    // The classic confusion attack: HS256 keyed with the public key.
    const forged = jwt.sign({ prn: principal }, pair.publicKey, { algorithm: 'HS256', audience: 'catalog', issuer: 'gateway' });
    expect(() => verifyInternalToken(pair.publicKey, forged, 'catalog')).toThrow();
  });
});
