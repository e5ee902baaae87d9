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
