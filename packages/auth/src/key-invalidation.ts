import type { RedisClient } from '@partner/kit';

/**
 * Console tells every gateway replica over Redis pub/sub when a key stops being what the caches
 * hold (revoked, owner suspended or lifted). Replicas drop matching entries at once; a replica that
 * lost its subscription drops everything on reconnect, so a missed message cannot keep a key alive.
 */
export type KeyInvalidation = { keyId: string } | { ownerId: string };

export const keyInvalidationChannel = (prefix: string): string => `${prefix}keys:invalidate`;

export async function publishKeyInvalidation(redis: RedisClient, prefix: string, message: KeyInvalidation): Promise<void> {
  await redis.publish(keyInvalidationChannel(prefix), JSON.stringify(message));
}

export function parseKeyInvalidation(raw: string): KeyInvalidation | null {
  try {
    const value = JSON.parse(raw) as Record<string, unknown>;
    if (typeof value.keyId === 'string') return { keyId: value.keyId };
    if (typeof value.ownerId === 'string') return { ownerId: value.ownerId };
  } catch {
    // fall through: a malformed message invalidates nothing
  }
  return null;
}
