import { describe, expect, it } from 'vitest';
import { isOriginAllowed, isWildcardTooBroad } from './origins.js';

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

describe('wildcards on public suffixes', () => {
  it.each(['https://*.co.uk', 'https://*.github.io', 'https://*.com.au'])('%s is too broad and matches nothing', (entry) => {
    expect(isWildcardTooBroad(entry)).toBe(true);
    expect(isOriginAllowed(`https://victim.${entry.slice('https://*.'.length)}`, [entry])).toBe(false);
  });

  it.each(['https://*.example.co.uk', 'https://*.shop.example.com', 'https://*.mysite.github.io'])(
    '%s is a registrable domain',
    (entry) => {
      expect(isWildcardTooBroad(entry)).toBe(false);
      expect(isOriginAllowed(`https://a.${entry.slice('https://*.'.length)}`, [entry])).toBe(true);
    },
  );

  it('says nothing of exact origins', () => {
    expect(isWildcardTooBroad('https://co.uk')).toBe(false);
  });
});
