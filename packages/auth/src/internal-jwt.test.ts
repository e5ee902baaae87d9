import jwt from 'jsonwebtoken';
import { describe, expect, it } from 'vitest';
import {
  generateInternalKeyPair,
  InternalTokenSigner,
  InternalTokenVerifier,
  signInternalToken,
  verifyInternalToken,
} from './internal-jwt.js';
import type { Principal } from './principal.js';

const pair = generateInternalKeyPair();
const principal: Principal = {
  kind: 'key',
  keyId: 'key_abc',
  keyType: 'secret',
  environment: 'live',
  scopes: ['menu:read'],
  owner: { kind: 'restaurant', id: 'rst_abc' },
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

describe('token reuse', () => {
  it('refuses a token the right key signed without an expiry, or with one far in the future', () => {
    const sign = (claims: object, options: jwt.SignOptions) =>
      jwt.sign({ prn: principal, ...claims }, pair.privateKey, { algorithm: 'ES256', audience: 'catalog', issuer: 'gateway', ...options });
    expect(() => verifyInternalToken(pair.publicKey, sign({}, {}), 'catalog')).toThrow('no expiry');
    expect(() => verifyInternalToken(pair.publicKey, sign({}, { expiresIn: '30d' }), 'catalog')).not.toThrow();
    // Issued two minutes ago, valid for a month: older than any token we mint lives.
    const issuedAt = Math.floor(Date.now() / 1000) - 120;
    expect(() => verifyInternalToken(pair.publicKey, sign({ iat: issuedAt }, { expiresIn: '30d' }), 'catalog')).toThrow('maxAge');
  });

  it('reuses a token for half its lifetime, then issues a new one', () => {
    let now = Date.now();
    const signer = new InternalTokenSigner(pair.privateKey, () => now);
    const first = signer.tokenFor(principal, 'catalog');
    expect(signer.tokenFor(principal, 'catalog')).toBe(first);
    expect(signer.tokenFor(principal, 'webhooks')).not.toBe(first);
    expect(signer.tokenFor({ ...principal, scopes: [] }, 'catalog')).not.toBe(first);
    now += 31_000;
    expect(signer.tokenFor(principal, 'catalog')).not.toBe(first);
  });

  it('remembers a verified token only until it expires, and never a bad one', () => {
    let now = Date.now();
    const verifier = new InternalTokenVerifier(pair.publicKey, 'catalog', () => now);
    const token = signInternalToken(pair.privateKey, principal, 'catalog');
    expect(verifier.verify(token)).toEqual(principal);
    expect(verifier.verify(token)).toEqual(principal);
    now += 61_000;
    expect(() => verifier.verify(token)).toThrow();
    expect(() => verifier.verify(`${token}x`)).toThrow();
  });

  it('forgets a remembered token once it is older than the lifetime we give tokens, whatever its expiry says', () => {
    let now = Date.now();
    const verifier = new InternalTokenVerifier(pair.publicKey, 'catalog', () => now);
    const longLived = jwt.sign({ prn: principal }, pair.privateKey, {
      algorithm: 'ES256',
      audience: 'catalog',
      issuer: 'gateway',
      expiresIn: '30d',
    });
    expect(verifier.verify(longLived)).toEqual(principal);
    now += 59_000;
    expect(verifier.verify(longLived)).toEqual(principal);
    now += 2_000;
    expect(() => verifier.verify(longLived)).toThrow('maxAge');
  });
});
