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

/** A key no file has: looking it up reaches the store (the bucket, the directory) and answers null. */
const PROBE_KEY = 'readyz-probe';

/**
 * The asset storage: a lookup through the driver's own interface, so the local directory and an S3
 * bucket are both checked the way the service reads them (its credentials, endpoint and permissions).
 */
export const storageCheck = (storage: { stat(key: string): Promise<unknown> }): ReadinessCheck => ({
  name: 'storage',
  probe: () => storage.stat(PROBE_KEY),
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
