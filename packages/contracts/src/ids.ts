import { z } from 'zod';

export const IdPrefix = {
  restaurant: 'rst',
  section: 'sec',
  item: 'itm',
  key: 'key',
  integratorOrg: 'org',
  grant: 'grt',
  event: 'evt',
  webhookEndpoint: 'we',
  webhookDelivery: 'whd',
  request: 'req',
  turn: 'trn',
} as const;
export type IdPrefix = (typeof IdPrefix)[keyof typeof IdPrefix];

/** Ids are a prefix, an underscore and a base62 body; anything else can never name a resource. */
export function isId(prefix: IdPrefix, value: string): boolean {
  return value.length <= 64 && value.startsWith(`${prefix}_`) && /^[A-Za-z0-9]+$/.test(value.slice(prefix.length + 1));
}

/** The same rule as `isId`, as a pattern, so that it shows in the API's JSON Schemas too. */
export const zId = (prefix: IdPrefix) =>
  z
    .string()
    .max(64, `must be an id starting with ${prefix}_`)
    .regex(new RegExp(`^${prefix}_[A-Za-z0-9]+$`), `must be an id starting with ${prefix}_`);
