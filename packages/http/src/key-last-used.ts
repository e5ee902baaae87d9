import type { RedisClient } from './redis.js';

// When each API key was last used, for the dashboard: the gateway writes it, console reads it. In Redis,
// to the minute, for 90 days: a key unused that long shows as never used.

const TTL_SECONDS = 90 * 24 * 3600;
const redisKey = (prefix: string, keyId: string) => `${prefix}keys:last-used:${keyId}`;

/**
 * The gateway's side: at most one write per key and minute per replica, in the background. A request
 * never waits for it; a Redis fault leaves the time behind by as long as the fault lasts.
 */
export class KeyUseRecorder {
  /** keyId → the minute last written; cleared when full (a rewrite a minute later costs nothing). */
  private readonly written = new Map<string, number>();

  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
    private readonly maxKeys = 100_000,
  ) {}

  used(keyId: string, nowMs: number): void {
    const minute = Math.floor(nowMs / 60_000);
    if (this.written.get(keyId) === minute) return;
    if (this.written.size >= this.maxKeys) this.written.clear();
    this.written.set(keyId, minute);
    this.redis.set(redisKey(this.prefix, keyId), String(minute * 60_000), { EX: TTL_SECONDS }).catch(() => {
      this.written.delete(keyId);
    });
  }
}

/** Console's side: when each of these keys was last used (to the minute), absent when not in 90 days. */
export async function readKeysLastUsed(redis: RedisClient, prefix: string, keyIds: string[]): Promise<Map<string, Date>> {
  if (keyIds.length === 0) return new Map();
  const values = await redis.mGet(keyIds.map((id) => redisKey(prefix, id)));
  return new Map(keyIds.flatMap((id, i) => (values[i] ? [[id, new Date(Number(values[i]))] as const] : [])));
}
