import { describe, expect, it } from 'vitest';
import { checkTargetUrl, isPublicAddress, TargetRefused } from './target-policy.js';

describe('isPublicAddress', () => {
  it.each(['93.184.215.14', '8.8.8.8', '2606:4700:4700::1111', '2a00:1450:4001:82b::200e', '::ffff:93.184.215.14'])(
    'allows the public address %s',
    (address) => expect(isPublicAddress(address)).toBe(true),
  );

  it.each([
    ['IPv4 loopback', '127.0.0.1'],
    ['IPv4 private', '10.1.2.3'],
    ['CGNAT', '100.64.0.1'],
    ['IPv4 link-local (cloud metadata)', '169.254.169.254'],
    ['IPv6 loopback', '::1'],
    ['IPv6 unspecified', '::'],
    ['IPv4-compatible IPv6 (::/96) of loopback', '::127.0.0.1'],
    ['IPv4-compatible IPv6 (::/96) of a private address', '::10.0.0.1'],
    ['IPv4-mapped loopback', '::ffff:127.0.0.1'],
    ['IPv6 unique-local', 'fd00::1'],
    ['IPv6 link-local', 'fe80::1'],
    ['IPv6 multicast', 'ff02::1'],
    ['6to4 (embeds an IPv4 address)', '2002:7f00:1::1'],
    ['Teredo', '2001:0:4136:e378::1'],
    ['IPv6 documentation', '2001:db8::1'],
    ['NAT64 of a private address', '64:ff9b::a00:1'],
    ['outside global unicast', '4000::1'],
  ])('refuses %s (%s)', (_name, address) => expect(isPublicAddress(address)).toBe(false));
});

describe('checkTargetUrl', () => {
  it('refuses an IPv4-compatible IPv6 literal as a target', () => {
    expect(() => checkTargetUrl('https://[::127.0.0.1]/hooks', { allowPrivate: false })).toThrow(TargetRefused);
  });
});
