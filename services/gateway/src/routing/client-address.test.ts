import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { clientAddress } from './client-address.js';

const request = (forwardedFor?: string) =>
  ({
    socket: { remoteAddress: '10.0.0.1' },
    headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor },
  }) as IncomingMessage;

describe('clientAddress', () => {
  it.each<[string | undefined, number, string]>([
    [undefined, 0, '10.0.0.1'],
    ['203.0.113.9', 0, '10.0.0.1'],
    [undefined, 1, '10.0.0.1'],
    ['203.0.113.9', 1, '203.0.113.9'],
    // A client can put anything first: one trusted hop believes only what the load balancer appended.
    ['198.51.100.1, 203.0.113.9', 1, '203.0.113.9'],
    ['198.51.100.1, 203.0.113.9,10.1.1.1', 2, '203.0.113.9'],
    ['203.0.113.9', 3, '203.0.113.9'],
  ])('X-Forwarded-For %s with %i trusted hops is %s, as express reads it', (forwardedFor, hops, expected) => {
    expect(clientAddress(request(forwardedFor), hops)).toBe(expected);
  });
});
