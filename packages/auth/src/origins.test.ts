import { describe, expect, it } from 'vitest';
import { isOriginAllowed } from './origins.js';

const list = ['https://www.example.com', 'https://*.example.org', 'http://localhost:5173'];

describe('isOriginAllowed', () => {
  it.each(['https://www.example.com', 'https://a.example.org', 'https://a.b.example.org', 'http://localhost:5173'])('allows %s', (origin) =>
    expect(isOriginAllowed(origin, list)).toBe(true),
  );

  it.each([
    undefined,
    '',
    'null',
    'https://example.com',
    'http://www.example.com',
    'https://www.example.com:444',
    'https://www.example.com.evil.com',
    'https://example.org',
    'https://evilexample.org',
    'https://a.example.org.evil.net',
    'http://a.example.org',
    'https://a.example.org:8443',
    'http://localhost:5174',
    'https://localhost:5173',
    'https://www.example.com/',
    'https://user@www.example.com',
    'not a url',
  ])('refuses %j', (origin) => expect(isOriginAllowed(origin, list)).toBe(false));

  it('refuses everything with an empty list, and ignores malformed entries', () => {
    expect(isOriginAllowed('https://www.example.com', [])).toBe(false);
    expect(isOriginAllowed('https://www.example.com', ['*', 'www.example.com', 'https://*'])).toBe(false);
  });
});
