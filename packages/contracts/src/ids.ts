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

/** Ids are a prefix, an underscore and a base62 body, 64 characters at most; nothing else can name a resource. */
const ID_MAX_LENGTH = 64;
const ID_PATTERNS = Object.fromEntries(Object.values(IdPrefix).map((prefix) => [prefix, new RegExp(`^${prefix}_[A-Za-z0-9]+$`)])) as Record<
  IdPrefix,
  RegExp
>;

export function isId(prefix: IdPrefix, value: string): boolean {
  return value.length <= ID_MAX_LENGTH && ID_PATTERNS[prefix].test(value);
}

/** `isId` as a schema: the pattern shows in the API's JSON Schemas too. */
export const zId = (prefix: IdPrefix) =>
  z
    .string()
    .max(ID_MAX_LENGTH, `must be an id starting with ${prefix}_`)
    .regex(ID_PATTERNS[prefix], `must be an id starting with ${prefix}_`);
