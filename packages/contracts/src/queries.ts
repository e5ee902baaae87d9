import { z } from 'zod';
import { ZDeliveryEventType } from './events.js';
import { zId } from './ids.js';
import { ZItemStatus } from './resources.js';
import { ZDeliveryStatus } from './webhooks.js';

// Query strings as the API reads them: every value arrives as text, and unknown parameters are refused.

export const PAGE_LIMIT = { default: 100, max: 1000 } as const;

/** `limit` as sent in a query string: digits only, 1 to 1000, default 100. */
export const zLimit = z
  .string()
  .regex(/^\d{1,7}$/, 'must be a whole number')
  .transform(Number)
  .pipe(z.number().int().min(1, 'must be at least 1').max(PAGE_LIMIT.max, `must be at most ${PAGE_LIMIT.max}`))
  .default(PAGE_LIMIT.default)
  .meta({
    description: 'Page size.',
    override: { type: 'integer', pattern: undefined, minimum: 1, maximum: PAGE_LIMIT.max, default: PAGE_LIMIT.default },
  });

export const zCursorParam = z
  .string()
  .min(1, 'must not be empty')
  .optional()
  .meta({ description: "The previous page's `meta.nextCursor`, sent back as it came with the same filters." });

/** Lists that take nothing but a page: restaurants, webhook endpoints. */
export const ZListQuery = z.strictObject({ limit: zLimit, cursor: zCursorParam });

/** `GET /v1/partner/restaurants/{id}/items`: a page of items, or with `updatedAfter` a sync window. */
export const ZItemListQuery = z.strictObject({
  limit: zLimit,
  cursor: zCursorParam,
  updatedAfter: z.iso
    .datetime({ offset: true, message: 'must be an ISO 8601 timestamp with a time zone, such as 2026-01-31T12:00:00.000Z' })
    .transform((value) => new Date(value))
    .optional()
    .meta({
      description:
        "Incremental sync: only items changed after this instant, deletions included as tombstones. Pass the previous answer's `meta.syncWindowEnd`.",
    }),
  status: z
    .enum(ZItemStatus.options, { message: `must be one of ${ZItemStatus.options.join(', ')}` })
    .optional()
    .meta({ description: 'Only items in this state.' }),
});

/** `GET /v1/partner/embed/items/{id}`: a view token refreshes expired URLs without counting another view. */
export const ZEmbedItemQuery = z.strictObject({
  view: z.string().max(200).optional().meta({ description: 'The `viewToken` of an earlier answer for the same item.' }),
});

/** `GET /v1/partner/webhook-deliveries`: newest first, narrowed by any of these. */
export const ZDeliveryListQuery = z.strictObject({
  limit: zLimit,
  cursor: zCursorParam,
  endpointId: zId('we').optional(),
  eventId: zId('evt').optional(),
  eventType: ZDeliveryEventType.optional(),
  status: ZDeliveryStatus.optional(),
});
