import { z } from 'zod';
import { zId } from './ids.js';
import { ZDeliveryEventType, ZEventType } from './events.js';
import { ZTimestamp } from './resources.js';

export const ZWebhookEndpointStatus = z.enum(['active', 'disabled']);

/**
 * How deliveries to an endpoint are signed: `x-service-signature` (spec 6.3, the default:
 * `X-Service-Signature: t=…,v1=<hex>`) or `standard-webhooks` (www.standardwebhooks.com: `webhook-id`,
 * `webhook-timestamp`, `webhook-signature: v1,<base64>`), which the standardwebhooks and svix
 * libraries verify.
 */
export const WEBHOOK_SIGNATURE_SCHEMES = ['x-service-signature', 'standard-webhooks'] as const;
export const ZWebhookSignatureScheme = z.enum(WEBHOOK_SIGNATURE_SCHEMES);
export type TWebhookSignatureScheme = z.infer<typeof ZWebhookSignatureScheme>;

/** The headers each scheme signs a delivery with, in lower case as Node and fetch give them. */
export const SIGNATURE_HEADER = 'x-service-signature';
export const STANDARD_WEBHOOKS_HEADERS = { id: 'webhook-id', timestamp: 'webhook-timestamp', signature: 'webhook-signature' } as const;

export const ZWebhookEndpoint = z.object({
  id: zId('we'),
  url: z.string(),
  enabledEvents: z.array(z.union([ZEventType, z.literal('*')])),
  description: z.string().nullable(),
  status: ZWebhookEndpointStatus,
  disabledReason: z.string().nullable(),
  signatureScheme: ZWebhookSignatureScheme,
  createdAt: ZTimestamp,
});
export type TWebhookEndpoint = z.infer<typeof ZWebhookEndpoint>;

/** Create and rotate responses are the only ones that carry the secret. */
export const ZWebhookEndpointWithSecret = ZWebhookEndpoint.extend({ secret: z.string().startsWith('whsec_') });

const ZEnabledEvents = z.array(z.union([ZEventType, z.literal('*')])).min(1);

export const ZCreateWebhookEndpoint = z.strictObject({
  url: z.url({ protocol: /^https?$/ }).max(2048),
  enabledEvents: ZEnabledEvents.default(['*']),
  description: z.string().max(500).optional(),
  signatureScheme: ZWebhookSignatureScheme.default('x-service-signature'),
});
/** Only what a patch names changes: no defaults here (a default inside an optional field still applies). */
export const ZUpdateWebhookEndpoint = z.strictObject({
  url: ZCreateWebhookEndpoint.shape.url.optional(),
  enabledEvents: ZEnabledEvents.optional(),
  description: ZCreateWebhookEndpoint.shape.description,
  status: z.literal('active').optional(),
  signatureScheme: ZWebhookSignatureScheme.optional(),
});

export const DELIVERY_STATUSES = ['pending', 'held', 'succeeded', 'failed', 'expired', 'skipped'] as const;
export const ZDeliveryStatus = z.enum(DELIVERY_STATUSES);

export const ZWebhookDelivery = z.object({
  id: zId('whd'),
  eventId: zId('evt'),
  /** `ping` for a test event (POST /v1/partner/webhook-endpoints/{id}/test). */
  eventType: ZDeliveryEventType,
  endpointId: zId('we'),
  attempt: z.number().int().positive(),
  status: ZDeliveryStatus,
  responseStatus: z.number().int().nullable(),
  durationMs: z.number().int().nullable(),
  error: z.string().nullable(),
  createdAt: ZTimestamp,
  nextAttemptAt: ZTimestamp.nullable(),
});
export type TWebhookDelivery = z.infer<typeof ZWebhookDelivery>;

/** Recover (issue 15): every undelivered event of an endpoint whose deliveries fall in `[since, until)`. */
export const ZRecoverWebhookDeliveries = z.strictObject({
  since: z.iso.datetime({ offset: true }),
  until: z.iso.datetime({ offset: true }).optional(),
});

/** Re-enabling an endpoint may recover in the same step (console). */
export const ZEnableWebhookEndpoint = z.strictObject({ recoverSince: ZRecoverWebhookDeliveries.shape.since.optional() });

export const ZWebhookRecovery = z.object({
  endpointId: zId('we'),
  since: ZTimestamp,
  until: ZTimestamp,
  /** New deliveries made, one per event (`pending`, or `held` while the restaurant has lapsed). */
  queued: z.number().int().nonnegative(),
  /** Of those, how many are held. */
  held: z.number().int().nonnegative(),
  /** More events matched than one request takes: the same request again takes the next ones. */
  truncated: z.boolean(),
});
export type TWebhookRecovery = z.infer<typeof ZWebhookRecovery>;

/** Rotating a secret: the old one keeps signing beside the new one for `overlapSeconds` (default 24 h). */
export const ZRotateWebhookSecret = z.strictObject({
  overlapSeconds: z
    .number()
    .int()
    .min(0)
    .max(7 * 24 * 3600)
    .optional(),
});
