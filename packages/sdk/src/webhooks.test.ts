import { describe, expect, it } from 'vitest';
import { computeSignature, signatureHeader } from '@partner/signing';
import {
  verifyWebhook,
  webhookSchemeOf,
  WebhookHeaderError,
  WebhookSignatureError,
  WebhookTimestampError,
  type WebhookVerificationError,
} from './webhooks.js';

// Fixed vectors: secret, timestamp and body in, signature out, each computed independently with openssl:
// `printf '%s' '1767225600.{"id":"evt_1"}' | openssl dgst -sha256 -hmac whsec_test_secret`, and for
// Standard Webhooks `openssl dgst -sha256 -mac HMAC -macopt hexkey:<base64-decoded secret> -binary | base64`.
const SECRET = 'whsec_test_secret';
const BODY = '{"id":"evt_1"}';
const T = 1767225600;
const NOW = () => T * 1000;
const VECTOR = 'f6ef300ec2c3f1ea8e4bc6d2a62975f58477d6fcd4bd03529a148873f625b1ca';

/** Our secrets' shape (`whsec_` and base64), signing `evt_1.1767225600.{"id":"evt_1"}`. */
const B64_SECRET = 'whsec_abcdefghijklmnopqrstuvwxyz012345';
const B64_VECTOR = 'BtbhrHBdD8Cx8mLYn6VZBSF2SWOejG1+P2dHRi9wDzc=';
const B64_SERVICE_VECTOR = '77c41573752f5d212eb88d3d91cef30b943086ec6bdc9e00b269def7a84f79d9';

/** The example of the Standard Webhooks specification's own test suite. */
const SPEC = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: 1614265330,
  body: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};

const standard = (signature: string, id = 'evt_1', timestamp = String(T)) => ({
  'webhook-id': id,
  'webhook-timestamp': timestamp,
  'webhook-signature': signature,
});

async function refusal(run: Promise<unknown>): Promise<WebhookVerificationError> {
  const error = await run.then(
    () => null,
    (err: unknown) => err,
  );
  expect(error).not.toBeNull();
  return error as WebhookVerificationError;
}

describe('X-Service-Signature (spec 6.3)', () => {
  it('matches the fixed vectors, as our dispatcher signs', () => {
    expect(computeSignature(SECRET, T, BODY)).toBe(VECTOR);
    expect(computeSignature(B64_SECRET, T, BODY)).toBe(B64_SERVICE_VECTOR);
  });

  it('verifies with the current or any listed secret, from the header value or the headers, and returns the event', async () => {
    expect(await verifyWebhook(BODY, `t=${T},v1=${VECTOR}`, SECRET, { now: NOW })).toEqual({ id: 'evt_1' });
    expect(await verifyWebhook(BODY, `t=${T},v1=${B64_SERVICE_VECTOR}`, B64_SECRET, { now: NOW })).toEqual({ id: 'evt_1' });
    const rotating = signatureHeader(['whsec_new', SECRET], T, BODY);
    expect(await verifyWebhook(new TextEncoder().encode(BODY), rotating, SECRET, { now: NOW })).toEqual({ id: 'evt_1' });
    expect(await verifyWebhook(BODY, rotating, ['whsec_other', 'whsec_new'], { now: NOW })).toEqual({ id: 'evt_1' });
    expect(await verifyWebhook(BODY, { 'X-Service-Signature': `t=${T},v1=${VECTOR}` }, SECRET, { now: NOW })).toEqual({ id: 'evt_1' });
    expect(await verifyWebhook(BODY, new Headers({ 'x-service-signature': `t=${T},v1=${VECTOR}` }), SECRET, { now: NOW })).toEqual({
      id: 'evt_1',
    });
    expect(await verifyWebhook(new TextEncoder().encode(BODY).buffer, `t=${T},v1=${VECTOR}`, SECRET, { now: NOW })).toEqual({
      id: 'evt_1',
    });
  });

  it.each([
    ['no header', undefined],
    ['an empty header', ''],
    ['no timestamp', `v1=${VECTOR}`],
    ['no signature', `t=${T}`],
    ['a garbled header', 'signature'],
  ])('refuses %s with a 400 header error', async (_name, header) => {
    const error = await refusal(verifyWebhook(BODY, header, SECRET, { now: NOW }));
    expect(error).toBeInstanceOf(WebhookHeaderError);
    expect(error.status).toBe(400);
  });

  it('refuses a timestamp more than 300 seconds away with 400', async () => {
    const error = await refusal(verifyWebhook(BODY, signatureHeader([SECRET], T - 301, BODY), SECRET, { now: NOW }));
    expect(error).toBeInstanceOf(WebhookTimestampError);
    expect(error.status).toBe(400);
    expect(await verifyWebhook(BODY, signatureHeader([SECRET], T - 300, BODY), SECRET, { now: NOW })).toEqual({ id: 'evt_1' });
    expect(await verifyWebhook(BODY, signatureHeader([SECRET], T + 300, BODY), SECRET, { now: NOW })).toEqual({ id: 'evt_1' });
  });

  it.each([
    ['another secret', BODY, signatureHeader(['whsec_other'], T, BODY)],
    ['a changed body', `${BODY} `, signatureHeader([SECRET], T, BODY)],
    ['a truncated signature', BODY, `t=${T},v1=${VECTOR.slice(0, 10)}`],
    ['an upper-case signature', BODY, `t=${T},v1=${VECTOR.toUpperCase()}`],
  ])('refuses a mismatch with 401: %s', async (_name, body, header) => {
    const error = await refusal(verifyWebhook(body, header, SECRET, { now: NOW }));
    expect(error).toBeInstanceOf(WebhookSignatureError);
    expect(error.status).toBe(401);
  });
});

describe('Standard Webhooks', () => {
  it("verifies the specification's own example", async () => {
    const headers = standard(SPEC.signature, SPEC.id, String(SPEC.timestamp));
    expect(await verifyWebhook(SPEC.body, headers, SPEC.secret, { now: () => SPEC.timestamp * 1000 })).toEqual({ test: 2432232314 });
  });

  it('verifies our secrets, among several signatures and versions, from a Headers or a plain object', async () => {
    expect(await verifyWebhook(BODY, standard(`v1,${B64_VECTOR}`), B64_SECRET, { now: NOW })).toEqual({ id: 'evt_1' });
    const several = `v1a,${B64_VECTOR} v1,bm90IGl0 v1,${B64_VECTOR}`;
    expect(await verifyWebhook(BODY, new Headers(standard(several)), B64_SECRET, { now: NOW })).toEqual({ id: 'evt_1' });
    expect(
      await verifyWebhook(
        BODY,
        { 'Webhook-Id': 'evt_1', 'Webhook-Timestamp': String(T), 'Webhook-Signature': `v1,${B64_VECTOR}` },
        B64_SECRET,
        { now: NOW },
      ),
    ).toEqual({
      id: 'evt_1',
    });
    // During a rotation: any of your secrets.
    expect(await verifyWebhook(BODY, standard(`v1,${B64_VECTOR}`), [SPEC.secret, B64_SECRET], { now: NOW })).toEqual({ id: 'evt_1' });
  });

  it('picks the scheme from the headers present', () => {
    expect(webhookSchemeOf(standard('v1,x'))).toBe('standard-webhooks');
    expect(webhookSchemeOf({ 'webhook-id': 'evt_1' })).toBe('standard-webhooks');
    expect(webhookSchemeOf({ 'x-service-signature': 't=1,v1=x' })).toBe('x-service-signature');
    expect(webhookSchemeOf(new Headers())).toBe('x-service-signature');
  });

  it.each([
    ['no webhook-id', { 'webhook-timestamp': String(T), 'webhook-signature': `v1,${B64_VECTOR}` }],
    ['no webhook-signature', { 'webhook-id': 'evt_1', 'webhook-timestamp': String(T) }],
    ['a timestamp that is not seconds', standard(`v1,${B64_VECTOR}`, 'evt_1', '2026-01-01T00:00:00Z')],
    ['no v1 signature', standard(`v1a,${B64_VECTOR}`)],
  ])('refuses %s with a 400 header error', async (_name, headers) => {
    const error = await refusal(verifyWebhook(BODY, headers, B64_SECRET, { now: NOW }));
    expect(error).toBeInstanceOf(WebhookHeaderError);
    expect(error.status).toBe(400);
  });

  it('refuses a timestamp more than 300 seconds away with 400, either way', async () => {
    for (const now of [NOW() + 301_000, NOW() - 301_000]) {
      expect(await refusal(verifyWebhook(BODY, standard(`v1,${B64_VECTOR}`), B64_SECRET, { now: () => now }))).toBeInstanceOf(
        WebhookTimestampError,
      );
    }
  });

  it.each([
    ['another secret', BODY, standard(`v1,${B64_VECTOR}`), SPEC.secret],
    ['a changed body', `${BODY} `, standard(`v1,${B64_VECTOR}`), B64_SECRET],
    ['another id', BODY, standard(`v1,${B64_VECTOR}`, 'evt_2'), B64_SECRET],
    ['a signature that is not base64', BODY, standard('v1,%%%'), B64_SECRET],
  ])('refuses a mismatch with 401: %s', async (_name, body, headers, secret) => {
    const error = await refusal(verifyWebhook(body, headers, secret, { now: NOW }));
    expect(error).toBeInstanceOf(WebhookSignatureError);
    expect(error.status).toBe(401);
  });

  it('verifies the scheme it is told to expect', async () => {
    const headers = { ...standard(`v1,${B64_VECTOR}`), 'x-service-signature': `t=${T},v1=${B64_SERVICE_VECTOR}` };
    expect(await verifyWebhook(BODY, headers, B64_SECRET, { now: NOW, scheme: 'standard-webhooks' })).toEqual({ id: 'evt_1' });
    const wrong = await refusal(verifyWebhook(BODY, standard(`v1,${B64_VECTOR}`), B64_SECRET, { now: NOW, scheme: 'x-service-signature' }));
    expect(wrong).toBeInstanceOf(WebhookHeaderError);
  });

  it('tells a secret that is not base64 apart from a bad signature', async () => {
    await expect(verifyWebhook(BODY, standard(`v1,${B64_VECTOR}`), 'whsec_not base64!', { now: NOW })).rejects.toThrow(TypeError);
    await expect(verifyWebhook(BODY, standard(`v1,${B64_VECTOR}`), [], { now: NOW })).rejects.toThrow(TypeError);
  });
});
