import { z } from 'zod';
import { zId } from './ids.js';
import { ZTimestamp } from './resources.js';

/** Spec 6.1. */
export const EVENT_TYPES = [
  'model.ready',
  'model.failed',
  'item.created',
  'item.updated',
  'item.deleted',
  'menu.updated',
  'grant.activated',
  'grant.revoked',
] as const;
export const ZEventType = z.enum(EVENT_TYPES);
export type TEventType = z.infer<typeof ZEventType>;

const ZItemEventData = z.object({
  itemId: zId('itm'),
  restaurantId: zId('rst'),
  itemSlug: z.string(),
  itemName: z.string(),
});
const ZModelFailedData = ZItemEventData.extend({ reason: z.string() });
const ZMenuUpdatedData = z.object({
  restaurantId: zId('rst'),
  etag: z.string(),
  changedItemIds: z.array(zId('itm')),
  deletedItemIds: z.array(zId('itm')),
  /** True when the id lists were cut at their cap: fetch the menu to see everything. */
  truncated: z.boolean(),
});
const ZGrantEventData = z.object({
  grantId: zId('grt'),
  restaurantId: zId('rst'),
  integratorOrgId: zId('org'),
});

export const EventDataSchemas = {
  'model.ready': ZItemEventData,
  'model.failed': ZModelFailedData,
  'item.created': ZItemEventData,
  'item.updated': ZItemEventData,
  'item.deleted': ZItemEventData,
  'menu.updated': ZMenuUpdatedData,
  'grant.activated': ZGrantEventData,
  'grant.revoked': ZGrantEventData,
} as const satisfies Record<TEventType, z.ZodType>;
export type TEventData<T extends TEventType> = z.infer<(typeof EventDataSchemas)[T]>;

const envelope = <T extends TEventType>(type: T) =>
  z.object({ id: zId('evt'), type: z.literal(type), createdAt: ZTimestamp, data: EventDataSchemas[type] });

/** Spec 2.8: the webhook body. */
export const ZEvent = z.discriminatedUnion('type', [
  envelope('model.ready'),
  envelope('model.failed'),
  envelope('item.created'),
  envelope('item.updated'),
  envelope('item.deleted'),
  envelope('menu.updated'),
  envelope('grant.activated'),
  envelope('grant.revoked'),
]);
export type TEvent = z.infer<typeof ZEvent>;

export const ZPingEventData = z.object({ endpointId: zId('we'), message: z.string() });

/**
 * The test event (`POST /v1/partner/webhook-endpoints/{id}/test`): sent to that one endpoint whatever
 * its `enabledEvents`, never fanned out, and not an event type anyone subscribes to (it is not in
 * EVENT_TYPES). Signed and delivered like any event.
 */
export const ZPingEvent = z.object({ id: zId('evt'), type: z.literal('ping'), createdAt: ZTimestamp, data: ZPingEventData });
export type TPingEvent = z.infer<typeof ZPingEvent>;

/** Every body a webhook endpoint can receive: the subscribable events and the test event. */
export const ZWebhookEvent = z.discriminatedUnion('type', [...ZEvent.options, ZPingEvent]);
export type TWebhookEvent = z.infer<typeof ZWebhookEvent>;

/** The types a delivery can carry (the delivery log's `eventType`): the subscribable ones and `ping`. */
export const ZDeliveryEventType = z.enum([...EVENT_TYPES, 'ping']);
export type TDeliveryEventType = z.infer<typeof ZDeliveryEventType>;
