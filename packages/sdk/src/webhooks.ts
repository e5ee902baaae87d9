import { createHmac, timingSafeEqual } from 'node:crypto';

// Webhook signatures (spec 6.3): X-Service-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256>[,v1=...].
// The HMAC is keyed with the endpoint's signing secret exactly as shown (whsec_ prefix included) and
// computed over `${t}.${raw body}`. During a secret rotation the header carries one v1 per valid secret.

export const SIGNATURE_HEADER = 'x-service-signature';
export const DEFAULT_TOLERANCE_SECONDS = 300;

function computeSignature(secret: string, timestamp: number, body: string | Uint8Array): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex');
}

/** Base of the verification errors; `status` is what a receiver should answer (400 or 401). */
export class WebhookVerificationError extends Error {
  constructor(
    message: string,
    readonly status: 400 | 401,
  ) {
    super(message);
    this.name = new.target.name;
  }
}
/** The header is missing, or lacks `t` or `v1`: answer 400. */
export class WebhookHeaderError extends WebhookVerificationError {
  constructor(message: string) {
    super(message, 400);
  }
}
/** The timestamp is further than the tolerance from now (a replay, or a clock far off): answer 400. */
export class WebhookTimestampError extends WebhookVerificationError {
  constructor(message: string) {
    super(message, 400);
  }
}
/** No signature matches any of your secrets: answer 401. */
export class WebhookSignatureError extends WebhookVerificationError {
  constructor(message: string) {
    super(message, 401);
  }
}

function parseHeader(header: string | undefined | null): { timestamp: number; signatures: string[] } {
  if (!header) throw new WebhookHeaderError('Missing X-Service-Signature header.');
  let timestamp: number | null = null;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const [name, value, ...extra] = part.trim().split('=');
    if (extra.length || !value) continue;
    if (name === 't' && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    if (name === 'v1') signatures.push(value);
  }
  if (timestamp === null) throw new WebhookHeaderError('X-Service-Signature has no valid t= timestamp.');
  if (!signatures.length) throw new WebhookHeaderError('X-Service-Signature has no v1= signature.');
  return { timestamp, signatures };
}

function equalHex(expected: string, given: string): boolean {
  // Length first (a public fact), then a constant-time comparison of the bytes.
  if (given.length !== expected.length) return false;
  return timingSafeEqual(Buffer.from(expected), Buffer.from(given));
}

/**
 * Verifies a webhook before you parse it: pass the raw body exactly as received, the
 * X-Service-Signature header and your secret (or several, during a rotation). Returns the parsed
 * event; throws a WebhookVerificationError whose `status` is the answer to give.
 */
export function verifyWebhook<T = unknown>(
  rawBody: string | Uint8Array,
  header: string | undefined | null,
  secrets: string | readonly string[],
  options: { toleranceSeconds?: number; now?: () => number } = {},
): T {
  const { timestamp, signatures } = parseHeader(header);
  const nowSeconds = Math.floor((options.now ?? Date.now)() / 1000);
  if (Math.abs(nowSeconds - timestamp) > (options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS)) {
    throw new WebhookTimestampError('The signature timestamp is outside the tolerance.');
  }
  const expected = (typeof secrets === 'string' ? [secrets] : secrets).map((secret) => computeSignature(secret, timestamp, rawBody));
  if (!expected.some((mac) => signatures.some((given) => equalHex(mac, given)))) {
    throw new WebhookSignatureError('No signature matches.');
  }
  const text = typeof rawBody === 'string' ? rawBody : Buffer.from(rawBody).toString('utf8');
  return JSON.parse(text) as T;
}
