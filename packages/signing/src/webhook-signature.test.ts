import { describe, expect, it } from 'vitest';
import {
  computeSignature,
  generateWebhookSecret,
  isStandardWebhooksSecret,
  signatureHeader,
  signWebhook,
  standardSignatureHeader,
} from './webhook-signature.js';

// Computed independently: printf '%s' '1767225600.{"id":"evt_1"}' | openssl dgst -sha256 -hmac whsec_test_secret
const VECTOR = 'f6ef300ec2c3f1ea8e4bc6d2a62975f58477d6fcd4bd03529a148873f625b1ca';

// The Standard Webhooks specification's own example, checked with openssl over the base64-decoded key.
const STANDARD = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  msgId: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: 1614265330,
  body: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};

describe('webhook signature header', () => {
  it('signs with every secret given, the current one first', () => {
    const other = computeSignature('whsec_old', 1767225600, '{"id":"evt_1"}');
    expect(signatureHeader(['whsec_test_secret', 'whsec_old'], 1767225600, '{"id":"evt_1"}')).toBe(`t=1767225600,v1=${VECTOR},v1=${other}`);
  });
});

describe('Standard Webhooks signature', () => {
  it("matches the specification's example", () => {
    expect(standardSignatureHeader([STANDARD.secret], STANDARD.msgId, STANDARD.timestamp, STANDARD.body)).toBe(STANDARD.signature);
  });

  it('carries one space-separated v1 per secret during a rotation', () => {
    const next = generateWebhookSecret();
    const header = standardSignatureHeader([next, STANDARD.secret], STANDARD.msgId, STANDARD.timestamp, STANDARD.body);
    const [first, second, ...rest] = header.split(' ');
    expect(first).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(second).toBe(STANDARD.signature);
    expect(rest).toEqual([]);
  });
});

describe('signWebhook', () => {
  const webhook = { msgId: STANDARD.msgId, timestamp: STANDARD.timestamp, body: STANDARD.body, secrets: [STANDARD.secret] };

  it('x-service-signature: one X-Service-Signature header', () => {
    expect(signWebhook('x-service-signature', webhook)).toEqual({
      'x-service-signature': signatureHeader([STANDARD.secret], STANDARD.timestamp, STANDARD.body),
    });
  });

  it('standard-webhooks: webhook-id, webhook-timestamp and webhook-signature', () => {
    expect(signWebhook('standard-webhooks', webhook)).toEqual({
      'webhook-id': STANDARD.msgId,
      'webhook-timestamp': '1614265330',
      'webhook-signature': STANDARD.signature,
    });
  });
});

describe('signing secrets', () => {
  it('are whsec_ and the base64 of 32 random bytes, each one different', () => {
    const secrets = new Set(Array.from({ length: 50 }, generateWebhookSecret));
    expect(secrets.size).toBe(50);
    for (const secret of secrets) {
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(isStandardWebhooksSecret(secret)).toBe(true);
    }
  });

  it.each([
    ['the base62 secrets made before', 'whsec_Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z', true],
    ["the specification's example (24 bytes)", STANDARD.secret, true],
    ['no prefix', 'MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', false],
    ['a length base64 cannot have', 'whsec_storedInClearBeforeSealingBegan00', false],
    ['fewer than 24 bytes', 'whsec_c2hvcnQ=', false],
    ['characters outside base64', 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLa-_', false],
  ])('%s: valid for Standard Webhooks %s', (_name, secret, valid) => {
    expect(isStandardWebhooksSecret(secret)).toBe(valid);
  });
});
