import { describe, expect, it } from 'vitest';
import { computeSignature, signatureHeader } from '@partner/signing';
import {
  verifyWebhook,
  WebhookHeaderError,
  WebhookSignatureError,
  WebhookTimestampError,
} from './webhooks.js';

// Fixed vectors: secret, timestamp and body in, header out. Computed independently with
// `printf '%s' '1767225600.{"id":"evt_1"}' | openssl dgst -sha256 -hmac whsec_test_secret`.
const SECRET = 'whsec_test_secret';
const BODY = '{"id":"evt_1"}';
const T = 1767225600;
const NOW = () => T * 1000;

describe('webhook signatures', () => {
  it('matches the fixed vectors', () => {
    expect(computeSignature(SECRET, T, BODY)).toBe(VECTOR);
    expect(signatureHeader([SECRET], T, BODY)).toBe(`t=${T},v1=${VECTOR}`);
    expect(signatureHeader([SECRET, 'whsec_old'], T, BODY)).toBe(`t=${T},v1=${VECTOR},v1=${computeSignature('whsec_old', T, BODY)}`);
  });

  it('verifies with the current or any listed secret and returns the event', () => {
    expect(verifyWebhook(BODY, `t=${T},v1=${VECTOR}`, SECRET, { now: NOW })).toEqual({ id: 'evt_1' });
    expect(verifyWebhook(Buffer.from(BODY), signatureHeader(['whsec_new', SECRET], T, BODY), SECRET, { now: NOW })).toEqual({
      id: 'evt_1',
    });
    expect(verifyWebhook(BODY, signatureHeader(['whsec_new'], T, BODY), ['whsec_other', 'whsec_new'], { now: NOW })).toEqual({
      id: 'evt_1',
    });
  });

  it.each([
    ['no header', undefined],
    ['an empty header', ''],
    ['no timestamp', `v1=${VECTOR}`],
    ['no signature', `t=${T}`],
    ['a garbled header', 'signature'],
  ])('refuses %s with a 400 header error', (_name, header) => {
    expect(() => verifyWebhook(BODY, header, SECRET, { now: NOW })).toThrow(expect.objectContaining({ status: 400 }) as WebhookHeaderError);
    expect(() => verifyWebhook(BODY, header, SECRET, { now: NOW })).toThrow(WebhookHeaderError);
  });

  it('refuses a timestamp more than 300 seconds away with 400', () => {
    const header = signatureHeader([SECRET], T - 301, BODY);
    expect(() => verifyWebhook(BODY, header, SECRET, { now: NOW })).toThrow(WebhookTimestampError);
    expect(verifyWebhook(BODY, signatureHeader([SECRET], T - 300, BODY), SECRET, { now: NOW })).toEqual({ id: 'evt_1' });
  });

  it('refuses a mismatch with 401: another secret, a changed body, a truncated signature', () => {
    for (const [body, header] of [
      [BODY, signatureHeader(['whsec_other'], T, BODY)],
      [`${BODY} `, signatureHeader([SECRET], T, BODY)],
      [BODY, `t=${T},v1=${VECTOR.slice(0, 10)}`],
    ] as const) {
      const run = () => verifyWebhook(body, header, SECRET, { now: NOW });
      expect(run).toThrow(WebhookSignatureError);
    }
  });
});

const VECTOR = 'f6ef300ec2c3f1ea8e4bc6d2a62975f58477d6fcd4bd03529a148873f625b1ca';
