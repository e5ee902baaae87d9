import { sql } from 'kysely';
import type { Db } from '@partner/db';
import { ProbeFailure, type ReadinessCheck } from './readiness.js';
import type { RedisClient } from './redis.js';

/** `select 1` through the service's own pool: a pool that cannot hand out a connection is a failure too. */
export const postgresCheck = (db: Db): ReadinessCheck => ({
  name: 'postgres',
  probe: () => sql`select 1`.execute(db),
});

export const redisCheck = (redis: RedisClient): ReadinessCheck => ({
  name: 'redis',
  probe: () => redis.ping(),
});

/**
 * The asset storage, through the driver's own check: the bucket is there and may be listed (with the
 * service's credentials, endpoint and permissions), or the directory is there and readable.
 */
export const storageCheck = (storage: { check(): Promise<string | null> }): ReadinessCheck => ({
  name: 'storage',
  probe: async () => {
    const problem = await storage.check();
    if (problem) throw new ProbeFailure(problem);
  },
});

/**
 * Another service's liveness: its `/healthz`, never its `/readyz`, so that a service unready for its
 * own database does not make its callers unready too.
 */
export const upstreamCheck = (name: string, origin: string): ReadinessCheck => ({
  name,
  probe: async (signal) => {
    const res = await fetch(new URL('/healthz', origin), { signal });
    await res.body?.cancel();
    if (!res.ok) throw new ProbeFailure(`answered ${res.status}`);
  },
});
