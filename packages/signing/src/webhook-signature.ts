import { createHmac } from 'node:crypto';

// Webhook signatures (spec 6.3): X-Service-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256>[,v1=...].
// The HMAC is keyed with the endpoint's signing secret exactly as shown (whsec_ prefix included) and
// computed over `${t}.${raw body}`. During a secret rotation the header carries one v1 per valid secret.
// Receivers verify with @partner/sdk; this side only signs.

export const SIGNATURE_HEADER = 'x-service-signature';

export function computeSignature(secret: string, timestamp: number, body: string | Uint8Array): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex');
}

/** The header value for a body signed with every secret given (the current one first). */
export function signatureHeader(secrets: readonly string[], timestamp: number, body: string | Uint8Array): string {
  return [`t=${timestamp}`, ...secrets.map((secret) => `v1=${computeSignature(secret, timestamp, body)}`)].join(',');
}
