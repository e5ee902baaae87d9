import { describe, expect, it } from 'vitest';
import { derivePublishableKey, environmentFromPrefix, generateApiKey, hashApiKey, parseApiKey } from './api-keys.js';

describe('API keys', () => {
  it.each([
    ['secret', 'live', 'svc_sk_live_'],
    ['secret', 'test', 'svc_sk_test_'],
    ['publishable', 'live', 'svc_pk_live_'],
    ['publishable', 'test', 'svc_pk_test_'],
  ] as const)('a %s %s key has its prefix, 38 base62 characters and parses back', (type, environment, prefix) => {
    const key = generateApiKey(type, environment);
    expect(key.value).toMatch(new RegExp(`^${prefix}[0-9A-Za-z]{38}$`));
    expect(key.prefix).toBe(prefix);
    expect(key.last4).toBe(key.value.slice(-4));
    expect(key.hash).toBe(hashApiKey(key.value));
    expect(parseApiKey(key.value)).toEqual({ type, environment });
  });

  it('never repeats', () => {
    const values = new Set(Array.from({ length: 1000 }, () => generateApiKey('secret', 'live').value));
    expect(values.size).toBe(1000);
  });

  it('refuses any single-character change (the checksum catches typos)', () => {
    const { value } = generateApiKey('secret', 'live');
    for (let i = 12; i < value.length; i++) {
      const changed = value.slice(0, i) + (value[i] === 'a' ? 'b' : 'a') + value.slice(i + 1);
      expect(parseApiKey(changed)).toBeNull();
    }
  });

  it.each([
    '',
    'svc_sk_live_',
    'svc_sk_prod_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
    'svc_xx_live_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
    'sk_live_abc',
  ])('refuses %j', (value) => expect(parseApiKey(value)).toBeNull());

  it('reads the environment from a prefix alone', () => {
    expect(environmentFromPrefix('svc_pk_test_whatever')).toBe('test');
    expect(environmentFromPrefix('svc_sk_live_x')).toBe('live');
    expect(environmentFromPrefix('garbage')).toBeNull();
  });

  it('hashes with SHA-256 (fixed vector)', () => {
    expect(hashApiKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('keeps the checksum of keys already issued (fixed vector)', () => {
    const key = 'svc_pk_live_2C4EAlkQhIXzAuzZ7JW09PLeCyKPHlZS0jKTvb';
    expect(derivePublishableKey('s', 'label', 'live').value).toBe(key);
    expect(parseApiKey(key)).toEqual({ type: 'publishable', environment: 'live' });
    expect(parseApiKey(`${key.slice(0, -1)}c`)).toBeNull();
  });
});
