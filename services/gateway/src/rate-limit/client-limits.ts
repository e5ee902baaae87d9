import { createHash } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';
import { AppError } from '@partner/contracts';
import { type RateLimitDecision, type RateLimiter, rateLimitHeaders } from './rate-limiter.js';

export interface EmbedLimits {
  perVisitorPerMin: number;
  perRestaurantPerMin: number;
}

/** The eight 16-bit groups of an IPv6 address (`::` expanded, a dotted IPv4 tail as two groups). */
function ipv6Groups(address: string): number[] {
  let text = address;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const parse = (part: string | undefined) => (part ? part.split(':').map((group) => parseInt(group, 16)) : []);
  const front = parse(head);
  const back = parse(tail);
  const zeros = tail === undefined ? [] : Array<number>(8 - front.length - back.length).fill(0);
  return [...front, ...zeros, ...back];
}

/**
 * The unit a client is counted by: an IPv4 address as it is, an IPv6 address by its /64. One
 * subscriber or host gets a whole /64 (RFC 6177) and can pick any address in it, so counting single
 * IPv6 addresses would give a script a fresh visitor per request. An IPv4-mapped IPv6 address
 * (`::ffff:a.b.c.d`, what a dual-stack socket reports for IPv4 clients) is the IPv4 address.
 */
export function clientGroupOf(clientAddress: string | undefined): string {
  if (!clientAddress) return 'unknown';
  const address = clientAddress.split('%')[0]!.toLowerCase();
  if (isIPv4(address)) return address;
  if (!isIPv6(address)) return address;
  const groups = ipv6Groups(address);
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}

/**
 * A visitor as the concierge and the per-address limits count it: a hash of the client's address
 * group (`clientGroupOf`), never the address itself.
 */
export const visitorOf = (clientAddress: string | undefined): string =>
  createHash('sha256').update(clientGroupOf(clientAddress)).digest('base64url').slice(0, 22);

/**
 * What a client address may cost before any key vouches for it: requests to public routes (the menu
 * page, asset files) and lookups of keys not yet seen that must go to the database. A flood of made-up
 * keys or of page loads from one address is refused before it reaches Postgres or a service; the
 * refusal says where the address stands, as a key's does.
 */
export async function checkClientLimit(limiter: RateLimiter, perMinute: number, client: string): Promise<RateLimitDecision> {
  const decision = await limiter.check(`client:${client}`, perMinute);
  if (!decision.allowed) {
    throw new AppError('rate_limited', 'Too many requests from this address. Retry after the seconds in Retry-After.', {
      headers: { ...rateLimitHeaders(decision), 'Retry-After': String(decision.retryAfterSeconds) },
    });
  }
  return decision;
}

/**
 * A publishable key is printed in pages, and its origin check binds only browsers: a script can send
 * any Origin. So its concierge requests are also limited per visitor and per restaurant, on the same
 * windows as the key's own limit (Redis, every replica agrees; each replica's share while it is down). A visitor refused does not count
 * against the restaurant.
 *
 * The restaurant is the one in the route (an integrator's key reaches many; each gets its own
 * buckets), paired with the key's owner: any publishable key can name any restaurant id, and the
 * gateway counts before the service checks reach, so a bucket of the restaurant's alone would let a
 * stranger's key fill it and silence the restaurant's own widget.
 */
export async function checkEmbedLimits(
  limiter: RateLimiter,
  limits: EmbedLimits,
  target: { restaurantId: string; keyOwnerId: string },
  visitor: string,
): Promise<void> {
  const scope = target.restaurantId === target.keyOwnerId ? target.restaurantId : `${target.restaurantId}:${target.keyOwnerId}`;
  const buckets = [
    { id: `embed:${scope}:v:${visitor}`, perMinute: limits.perVisitorPerMin, who: 'this visitor' },
    { id: `embed:${scope}`, perMinute: limits.perRestaurantPerMin, who: "this restaurant's embeds" },
  ];
  for (const bucket of buckets) {
    const decision = await limiter.check(bucket.id, bucket.perMinute);
    if (!decision.allowed) {
      throw new AppError('rate_limited', `Too many assistant requests from ${bucket.who}. Retry after the seconds in Retry-After.`, {
        headers: { 'Retry-After': String(decision.retryAfterSeconds) },
      });
    }
  }
}
