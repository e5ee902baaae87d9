import type { WebhookEndpointRow } from '@partner/db';
import { type SealingKeys, signWebhook } from '@partner/signing';
import { openEndpointSecret } from '../endpoints/endpoint-secrets.js';
import type { SendOutcome, WebhookSender } from './sender.js';

/** What sending needs of an endpoint: where, and with which secrets and scheme to sign. */
export type SigningEndpoint = Pick<
  WebhookEndpointRow,
  'id' | 'url' | 'secret' | 'previous_secret' | 'previous_secret_expires_at' | 'signature_scheme'
>;

export interface OutgoingEvent {
  id: string;
  type: string;
  createdAt: Date;
  data: unknown;
}

/** What a receiver gets: the event's envelope, as JSON. */
export const eventBody = (event: OutgoingEvent) => ({ id: event.id, type: event.type, createdAt: event.createdAt.toISOString(), data: event.data });

export interface SendEventOptions {
  sender: WebhookSender;
  /** Opens the endpoint's sealed signing secrets. */
  sealing: SealingKeys;
  now: () => Date;
  /** Less than the sender's 10 seconds when an answer waits on it (a test event). */
  timeoutMs?: number;
}

/** Opened secrets per key ring, by endpoint and sealed value: opening (AES-GCM) cost more than signing. */
const openedSecrets = new WeakMap<SealingKeys, Map<string, string>>();
const OPENED_SECRETS_MAX = 10_000;

function openSecret(sealing: SealingKeys, endpointId: string, sealed: string): string {
  let opened = openedSecrets.get(sealing);
  if (!opened) openedSecrets.set(sealing, (opened = new Map<string, string>()));
  const key = `${endpointId} ${sealed}`;
  let secret = opened.get(key);
  if (secret === undefined) {
    secret = openEndpointSecret(sealing, endpointId, sealed);
    if (opened.size >= OPENED_SECRETS_MAX) opened.delete(opened.keys().next().value!);
    opened.set(key, secret);
  }
  return secret;
}

/**
 * One attempt of one event to one endpoint: the body, signed under the endpoint's scheme with every
 * secret that signs now (the previous one too during a rotation's overlap), sent through the sender's
 * target checks. The dispatcher's deliveries and the test event both go out here.
 */
export async function sendEvent(
  options: SendEventOptions,
  endpoint: SigningEndpoint,
  event: OutgoingEvent,
  deliveryId: string,
): Promise<SendOutcome> {
  const now = options.now();
  const body = JSON.stringify(eventBody(event));
  const secrets = [openSecret(options.sealing, endpoint.id, endpoint.secret)];
  if (endpoint.previous_secret && endpoint.previous_secret_expires_at && endpoint.previous_secret_expires_at > now) {
    secrets.push(openSecret(options.sealing, endpoint.id, endpoint.previous_secret));
  }
  const signature = signWebhook(endpoint.signature_scheme, { msgId: event.id, timestamp: Math.floor(now.getTime() / 1000), body, secrets });
  return options.sender.send(
    endpoint.url,
    body,
    { 'x-service-event': event.type, 'x-service-delivery': deliveryId, ...signature },
    { timeoutMs: options.timeoutMs },
  );
}
