import { createHmac, randomBytes } from 'node:crypto';
import { SIGNATURE_HEADER, STANDARD_WEBHOOKS_HEADERS, type TWebhookSignatureScheme } from '@partner/contracts';

// Webhook signatures. Receivers verify with @partner/sdk or any Standard Webhooks library; this side
// only signs. During a secret rotation every scheme carries one signature per valid secret.
//
// x-service-signature (spec 6.3, the default): X-Service-Signature: t=<unix seconds>,v1=<hex>[,v1=...],
// the HMAC-SHA256 keyed with the secret exactly as shown (whsec_ prefix included) over `${t}.${body}`.
// Stripe's header has the same form, so stripe.webhooks.constructEvent verifies it too.
//
// standard-webhooks (www.standardwebhooks.com): webhook-id (the event id, the same across retries),
// webhook-timestamp (unix seconds) and webhook-signature: v1,<base64>[ v1,<base64>...], the HMAC-SHA256
// keyed with the base64-decoded secret after `whsec_` over `${id}.${timestamp}.${body}`.

const SECRET_PREFIX = 'whsec_';
/** Standard Webhooks asks for 24 to 64 random bytes; 32 is the key size of HMAC-SHA256. */
const SECRET_BYTES = 32;

/**
 * A new signing secret: `whsec_` and the base64 of 32 random bytes, valid for either scheme (an
 * endpoint can switch schemes without a new secret).
 */
export function generateWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(SECRET_BYTES).toString('base64')}`;
}

/**
 * Whether a Standard Webhooks library accepts the secret: canonical base64 of 24 to 64 bytes after
 * `whsec_`. Secrets made before secrets were base64 (32 base62 characters) pass too: base62 is a subset
 * of the base64 alphabet and 32 characters decode to 24 bytes.
 */
export function isStandardWebhooksSecret(secret: string): boolean {
  if (!secret.startsWith(SECRET_PREFIX)) return false;
  const body = secret.slice(SECRET_PREFIX.length);
  if (body.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(body)) return false;
  const key = Buffer.from(body, 'base64');
  return key.length >= 24 && key.length <= 64 && key.toString('base64') === body;
}

export function computeSignature(secret: string, timestamp: number, body: string | Uint8Array): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex');
}

/** The X-Service-Signature value for a body signed with every secret given (the current one first). */
export function signatureHeader(secrets: readonly string[], timestamp: number, body: string | Uint8Array): string {
  return [`t=${timestamp}`, ...secrets.map((secret) => `v1=${computeSignature(secret, timestamp, body)}`)].join(',');
}

/** One Standard Webhooks signature (base64, without its `v1,`). */
export function computeStandardSignature(secret: string, msgId: string, timestamp: number, body: string | Uint8Array): string {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
  return createHmac('sha256', key).update(`${msgId}.${timestamp}.`).update(body).digest('base64');
}

/** The webhook-signature value: `v1,<base64>` per secret given (the current one first), space-separated. */
export function standardSignatureHeader(secrets: readonly string[], msgId: string, timestamp: number, body: string | Uint8Array): string {
  return secrets.map((secret) => `v1,${computeStandardSignature(secret, msgId, timestamp, body)}`).join(' ');
}

export interface WebhookToSign {
  /** The event id: Standard Webhooks' webhook-id, which receivers deduplicate on. */
  msgId: string;
  /** Unix seconds. */
  timestamp: number;
  /** The exact bytes sent. */
  body: string | Uint8Array;
  /** Every secret that signs now, the current one first. */
  secrets: readonly string[];
}

/** The signature headers of a delivery under the endpoint's scheme (lowercase names). */
export function signWebhook(scheme: TWebhookSignatureScheme, webhook: WebhookToSign): Record<string, string> {
  const { msgId, timestamp, body, secrets } = webhook;
  switch (scheme) {
    case 'x-service-signature':
      return { [SIGNATURE_HEADER]: signatureHeader(secrets, timestamp, body) };
    case 'standard-webhooks':
      return {
        [STANDARD_WEBHOOKS_HEADERS.id]: msgId,
        [STANDARD_WEBHOOKS_HEADERS.timestamp]: String(timestamp),
        [STANDARD_WEBHOOKS_HEADERS.signature]: standardSignatureHeader(secrets, msgId, timestamp, body),
      };
  }
}
