import { describe, expect, it } from 'vitest';
import { SealError, SealingKeys } from './sealing.js';

const older = SealingKeys.generateSpec('2026-05');
const newer = SealingKeys.generateSpec('2026-11');

describe('SealingKeys', () => {
  it('opens what it sealed, in its context only, and never shows the plaintext', () => {
    const keys = SealingKeys.parse(newer);
    const sealed = keys.seal('whsec_secret', 'webhook-endpoint:we_1');
    expect(sealed).toMatch(/^sealed1:2026-11:[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain('whsec_secret');
    expect(SealingKeys.isSealed(sealed)).toBe(true);
    expect(SealingKeys.isSealed('whsec_secret')).toBe(false);
    expect(keys.seal('whsec_secret', 'webhook-endpoint:we_1')).not.toBe(sealed);
    expect(keys.open(sealed, 'webhook-endpoint:we_1')).toBe('whsec_secret');
    expect(() => keys.open(sealed, 'webhook-endpoint:we_2')).toThrow(SealError);
  });

  it('refuses an altered, truncated, unsealed or foreign value', () => {
    const keys = SealingKeys.parse(newer);
    const sealed = keys.seal('whsec_secret', 'ctx');
    const payload = Buffer.from(sealed.split(':')[2]!, 'base64url');
    payload[payload.length - 20]! ^= 1;
    expect(() => keys.open(`sealed1:2026-11:${payload.toString('base64url')}`, 'ctx')).toThrow(SealError);
    expect(() => keys.open('sealed1:2026-11:AAAA', 'ctx')).toThrow(SealError);
    expect(() => keys.open('whsec_plain', 'ctx')).toThrow(SealError);
    expect(() => SealingKeys.parse(SealingKeys.generateSpec('2026-11')).open(sealed, 'ctx')).toThrow(SealError);
  });

  it('rotates: the new key seals, the old one still opens, and values under the old key are told apart', () => {
    const before = SealingKeys.parse(older);
    const after = SealingKeys.parse(`${newer},${older}`);
    const old = before.seal('whsec_secret', 'ctx');
    expect(after.open(old, 'ctx')).toBe('whsec_secret');
    expect(old.startsWith(after.currentPrefix)).toBe(false);
    expect(after.seal('whsec_secret', 'ctx').startsWith(after.currentPrefix)).toBe(true);
    expect(() => SealingKeys.parse(newer).open(old, 'ctx')).toThrow(/key "2026-05", which is not configured/);
  });

  it('refuses a malformed key ring without repeating its keys', () => {
    const short = `k1:${Buffer.alloc(16).toString('base64')}`;
    for (const spec of ['', 'k1', short, `bad id:${Buffer.alloc(32).toString('base64')}`, `${newer},${newer}`]) {
      let message = '';
      try {
        SealingKeys.parse(spec);
      } catch (err) {
        message = (err as Error).message;
      }
      expect(message, spec).not.toBe('');
      expect(message).not.toContain(newer.split(':')[1]);
      expect(message).not.toContain(Buffer.alloc(16).toString('base64'));
    }
  });
});
