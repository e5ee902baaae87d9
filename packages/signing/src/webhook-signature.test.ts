import { describe, expect, it } from 'vitest';
import { computeSignature, signatureHeader } from './webhook-signature.js';

// Computed independently: printf '%s' '1767225600.{"id":"evt_1"}' | openssl dgst -sha256 -hmac whsec_test_secret
const VECTOR = 'f6ef300ec2c3f1ea8e4bc6d2a62975f58477d6fcd4bd03529a148873f625b1ca';

describe('webhook signature header', () => {
  it('signs with every secret given, the current one first', () => {
    const other = computeSignature('whsec_old', 1767225600, '{"id":"evt_1"}');
    expect(signatureHeader(['whsec_test_secret', 'whsec_old'], 1767225600, '{"id":"evt_1"}')).toBe(`t=1767225600,v1=${VECTOR},v1=${other}`);
  });
});
