import { hash, randomFillSync } from 'node:crypto';
import { crc32 } from 'node:zlib';
import type { TEnvironment, TKeyType } from '@partner/contracts';
import { HmacKey } from '@partner/signing';

// svc_{sk|pk}_{live|test}_ + 32 random base62 characters + 6 base62 characters of CRC-32 over
// everything before them. The checksum lets a secret scanner (and our gateway, before any database
// work) tell a real key from a typo or a made-up string.

const BODY_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
const KEY_PATTERN = /^svc_(sk|pk)_(live|test)_([0-9A-Za-z]{38})$/;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Uniform base62 from the CSPRNG (rejection sampling keeps every character equally likely). */
/**
 * CSPRNG bytes drawn from a buffer refilled 4 KB at a time (as Node's own randomUUID does): one call
 * into the CSPRNG per ~100 ids instead of one per id, which cost the webhooks dispatcher 5 % of its CPU.
 */
const randomPool = Buffer.alloc(4096);
let randomPoolOffset = randomPool.length;

function randomByte(): number {
  if (randomPoolOffset === randomPool.length) {
    randomFillSync(randomPool);
    randomPoolOffset = 0;
  }
  return randomPool[randomPoolOffset++]!;
}

export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    const byte = randomByte();
    // 248 = 4 x 62: bytes above it are dropped so that every character is equally likely.
    if (byte < 248) out += BASE62[byte % 62];
  }
  return out;
}

function checksum(text: string): string {
  let value = crc32(text);
  let out = '';
  for (let i = 0; i < CHECKSUM_LENGTH; i++) {
    out = BASE62[value % 62] + out;
    value = Math.floor(value / 62);
  }
  return out;
}

/** Test keys' fixed caps, whatever rate they were given (spec 5.2): the gateway enforces them, console shows them. */
export const TEST_KEY_LIMITS = { perMinute: 60, perDay: 5_000 } as const;

export const keyPrefix = (type: TKeyType, environment: TEnvironment): string => `svc_${type === 'secret' ? 'sk' : 'pk'}_${environment}_`;

export interface GeneratedKey {
  /** The plaintext: returned to the creator once, never stored. */
  value: string;
  hash: string;
  prefix: string;
  last4: string;
}

function keyFromBody(type: TKeyType, environment: TEnvironment, body: string): GeneratedKey {
  const prefix = keyPrefix(type, environment);
  const head = prefix + body;
  const value = head + checksum(head);
  return { value, hash: hashApiKey(value), prefix, last4: value.slice(-4) };
}

export function generateApiKey(type: TKeyType, environment: TEnvironment): GeneratedKey {
  return keyFromBody(type, environment, randomBase62(BODY_LENGTH));
}

/**
 * A publishable key computed from a server secret and a label (e.g. a restaurant's public menu page):
 * whoever holds the secret can print it into a page without the plaintext ever being stored.
 */
export function derivePublishableKey(secret: string, label: string, environment: TEnvironment): GeneratedKey {
  const key = new HmacKey(secret);
  let body = '';
  for (let round = 0; body.length < BODY_LENGTH; round++) {
    for (const byte of key.sign(`${label}#${round}`)) {
      if (byte < 248 && body.length < BODY_LENGTH) body += BASE62[byte % 62];
    }
  }
  return keyFromBody('publishable', environment, body);
}

export interface ParsedKey {
  type: TKeyType;
  environment: TEnvironment;
}

/** The key's type and environment when it is well-formed with a valid checksum; otherwise null. */
export function parseApiKey(value: string): ParsedKey | null {
  const match = KEY_PATTERN.exec(value);
  if (!match) return null;
  const head = value.slice(0, value.length - CHECKSUM_LENGTH);
  if (checksum(head) !== value.slice(-CHECKSUM_LENGTH)) return null;
  return { type: match[1] === 'sk' ? 'secret' : 'publishable', environment: match[2] as TEnvironment };
}

/** The environment a string claims by its prefix alone, for headers on answers to bad keys. */
export function environmentFromPrefix(value: string): TEnvironment | null {
  const match = /^svc_(?:sk|pk)_(live|test)_/.exec(value);
  return match ? (match[1] as TEnvironment) : null;
}

/**
 * Keys carry 190 bits of entropy, so a plain SHA-256 is the right hash: a slow password hash would
 * add nothing but latency. Lookups go by this hash through a unique index, never by comparing secrets.
 */
export function hashApiKey(value: string): string {
  return hash('sha256', value, 'hex');
}

export const redactKey = (prefix: string, last4: string): string => `${prefix}…${last4}`;
