import { SIGNATURE_HEADER, STANDARD_WEBHOOKS_HEADERS, type TWebhookEvent, type TWebhookSignatureScheme } from '@partner/contracts';

// Webhook signatures, verified on Web Crypto alone so that a receiver runs anywhere (Node, browsers,
// Deno, edge runtimes). An endpoint signs with one of two schemes:
// - ours (spec 6.3): `X-Service-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256>[,v1=…]` over
//   `${t}.${raw body}`, keyed with the secret exactly as shown (`whsec_` included);
// - Standard Webhooks (standardwebhooks.com): `webhook-id`, `webhook-timestamp` and
//   `webhook-signature: v1,<base64 HMAC-SHA256>[ v1,…]` over `${id}.${timestamp}.${raw body}`, keyed
//   with the base64 decoding of what follows `whsec_`.
// During a secret rotation either scheme carries one signature per valid secret.

export { SIGNATURE_HEADER, STANDARD_WEBHOOKS_HEADERS };
export const DEFAULT_TOLERANCE_SECONDS = 300;

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
/** A signature header is missing or malformed: answer 400. */
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

/** Request headers as any runtime hands them over: a Fetch `Headers`, or Node's (and Express's) object. */
export type WebhookHeaders = { get(name: string): string | null } | Record<string, string | readonly string[] | undefined>;

export interface VerifyWebhookOptions {
  /** Seconds the signature's timestamp may be from now (default 300). */
  toleranceSeconds?: number;
  /** Milliseconds since the epoch (default `Date.now`). */
  now?: () => number;
  /** Which scheme to expect (the endpoint's `signatureScheme`); by default the one whose headers are present. */
  scheme?: TWebhookSignatureScheme;
}

type Bytes = Uint8Array<ArrayBuffer>;
const encoder = new TextEncoder();

function headerOf(headers: WebhookHeaders, name: string): string | null {
  if (typeof headers.get === 'function') return (headers as { get(name: string): string | null }).get(name);
  for (const [key, value] of Object.entries(headers as Record<string, string | readonly string[] | undefined>)) {
    if (key.toLowerCase() === name) return typeof value === 'string' ? value : (value?.join(', ') ?? null);
  }
  return null;
}

/** The scheme whose headers are present: Standard Webhooks when any `webhook-*` header is and ours is not. */
export function webhookSchemeOf(headers: WebhookHeaders): TWebhookSignatureScheme {
  if (headerOf(headers, SIGNATURE_HEADER) !== null) return 'x-service-signature';
  const standard = Object.values(STANDARD_WEBHOOKS_HEADERS).some((name) => headerOf(headers, name) !== null);
  return standard ? 'standard-webhooks' : 'x-service-signature';
}

function concat(prefix: string, body: Uint8Array): Bytes {
  const head = encoder.encode(prefix);
  const out = new Uint8Array(head.length + body.length);
  out.set(head);
  out.set(body, head.length);
  return out;
}

function fromHex(hex: string): Bytes | null {
  if (!/^[0-9a-f]{64}$/.test(hex)) return null;
  return Uint8Array.from(hex.match(/../g)!, (pair) => parseInt(pair, 16));
}

function fromBase64(text: string): Bytes | null {
  try {
    return Uint8Array.from(atob(text), (char) => char.charCodeAt(0));
  } catch {
    return null;
  }
}

/**
 * Whether any signature is an HMAC-SHA256 of `data` under any key. `subtle.verify` compares in
 * constant time; signatures of the wrong length were dropped before (a public fact).
 */
async function anyMatches(keys: Bytes[], signatures: Bytes[], data: Bytes): Promise<boolean> {
  for (const raw of keys) {
    const key = await globalThis.crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
    for (const signature of signatures) {
      if (signature.length === 32 && (await globalThis.crypto.subtle.verify('HMAC', key, signature, data))) return true;
    }
  }
  return false;
}

function checkTimestamp(timestamp: number, options: VerifyWebhookOptions): void {
  const nowSeconds = Math.floor((options.now ?? Date.now)() / 1000);
  if (Math.abs(nowSeconds - timestamp) > (options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS)) {
    throw new WebhookTimestampError('The signature timestamp is outside the tolerance.');
  }
}

async function verifyServiceSignature(body: Uint8Array, header: string | null, secrets: readonly string[], options: VerifyWebhookOptions) {
  if (!header) throw new WebhookHeaderError('Missing X-Service-Signature header.');
  let timestamp: number | null = null;
  const signatures: Bytes[] = [];
  let named = 0;
  for (const part of header.split(',')) {
    const [name, value, ...extra] = part.trim().split('=');
    if (extra.length || !value) continue;
    if (name === 't' && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    if (name === 'v1') {
      named++;
      const bytes = fromHex(value);
      if (bytes) signatures.push(bytes);
    }
  }
  if (timestamp === null) throw new WebhookHeaderError('X-Service-Signature has no valid t= timestamp.');
  if (!named) throw new WebhookHeaderError('X-Service-Signature has no v1= signature.');
  checkTimestamp(timestamp, options);
  const keys = secrets.map((secret) => encoder.encode(secret));
  if (!(await anyMatches(keys, signatures, concat(`${timestamp}.`, body)))) throw new WebhookSignatureError('No signature matches.');
}

function standardKey(secret: string): Bytes {
  const key = fromBase64(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret);
  if (!key?.length) throw new TypeError('A Standard Webhooks secret is base64 after whsec_.');
  return key;
}

async function verifyStandardSignature(
  body: Uint8Array,
  headers: WebhookHeaders,
  secrets: readonly string[],
  options: VerifyWebhookOptions,
) {
  const id = headerOf(headers, STANDARD_WEBHOOKS_HEADERS.id);
  const timestampHeader = headerOf(headers, STANDARD_WEBHOOKS_HEADERS.timestamp);
  const signatureHeader = headerOf(headers, STANDARD_WEBHOOKS_HEADERS.signature);
  if (!id || !timestampHeader || !signatureHeader) {
    throw new WebhookHeaderError('Missing webhook-id, webhook-timestamp or webhook-signature header.');
  }
  if (!/^\d{1,12}$/.test(timestampHeader.trim())) throw new WebhookHeaderError('webhook-timestamp is not a Unix time in seconds.');
  const timestamp = Number(timestampHeader.trim());
  // Space-separated `version,signature` pairs; versions other than v1 (v1a is asymmetric) are not ours to check.
  const versioned = signatureHeader
    .split(' ')
    .map((entry) => entry.split(','))
    .filter(([version]) => version === 'v1');
  if (!versioned.length) throw new WebhookHeaderError('webhook-signature has no v1 signature.');
  checkTimestamp(timestamp, options);
  const signatures = versioned.flatMap(([, value]) => (value ? (fromBase64(value) ?? []) : []));
  const keys = secrets.map(standardKey);
  if (!(await anyMatches(keys, signatures, concat(`${id}.${timestamp}.`, body)))) throw new WebhookSignatureError('No signature matches.');
}

/**
 * Verifies a webhook before you parse it, and returns the parsed event. Pass the raw body exactly as
 * received, the request's headers (a `Headers`, Node's `req.headers`, or just the X-Service-Signature
 * value) and your secret, or several during a rotation. The scheme is the one whose headers are
 * present. Throws a WebhookVerificationError whose `status` is the answer to give.
 */
export async function verifyWebhook<T = TWebhookEvent>(
  rawBody: string | Uint8Array | ArrayBuffer,
  headers: WebhookHeaders | string | null | undefined,
  secrets: string | readonly string[],
  options: VerifyWebhookOptions = {},
): Promise<T> {
  const list = typeof secrets === 'string' ? [secrets] : secrets;
  if (!list.length || list.some((secret) => !secret)) throw new TypeError('verifyWebhook needs at least one non-empty secret.');
  const body = typeof rawBody === 'string' ? encoder.encode(rawBody) : rawBody instanceof Uint8Array ? rawBody : new Uint8Array(rawBody);
  const given = typeof headers === 'object' && headers !== null ? headers : null;
  const scheme = options.scheme ?? (given ? webhookSchemeOf(given) : 'x-service-signature');
  if (scheme === 'standard-webhooks') {
    await verifyStandardSignature(body, given ?? {}, list, options);
  } else {
    await verifyServiceSignature(
      body,
      given ? headerOf(given, SIGNATURE_HEADER) : ((headers as string | null | undefined) ?? null),
      list,
      options,
    );
  }
  return JSON.parse(new TextDecoder().decode(body)) as T;
}
