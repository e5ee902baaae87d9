import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase, type TestDatabase } from '@partner/testing';
import { claimIdempotencyKey, purgeIdempotencyRecords, renewIdempotencyClaim } from './idempotency.repository.js';

let database: TestDatabase;
beforeAll(async () => {
  database = await useTestDatabase();
});
afterAll(() => database.drop());

const claim = (idempotencyKey: string) => ({ apiKeyId: 'key_idem', idempotencyKey, method: 'POST', path: '/v1/x', bodyHash: 'h' });
const lockedSecondsAgo = (idempotencyKey: string, seconds: number) =>
  sql`update idempotency_records set locked_at = now() - make_interval(secs => ${seconds}) where idempotency_key = ${idempotencyKey}`.execute(
    database.db,
  );

describe('idempotency claims', () => {
  it('are taken over once abandoned for a minute, and never while their execution renews them', async () => {
    expect(await claimIdempotencyKey(database.db, claim('abandoned'))).toEqual({ claimed: true });
    await lockedSecondsAgo('abandoned', 61);
    expect(await claimIdempotencyKey(database.db, claim('abandoned'))).toEqual({ claimed: true });

    // The same age, but the execution renewed its claim: still running, so a retry must wait for it.
    expect(await claimIdempotencyKey(database.db, claim('long-running'))).toEqual({ claimed: true });
    await lockedSecondsAgo('long-running', 61);
    await renewIdempotencyClaim(database.db, { apiKeyId: 'key_idem', idempotencyKey: 'long-running' });
    const retry = await claimIdempotencyKey(database.db, claim('long-running'));
    expect(retry.claimed).toBe(false);
  });
});

describe('the idempotency purge', () => {
  it('forgets records past 24 hours in batches, and keeps the younger ones', async () => {
    const keys = Array.from({ length: 5_003 }, (_, i) => `old-${i}`);
    await sql`
      insert into idempotency_records (api_key_id, idempotency_key, method, path, body_hash, state, created_at)
      select 'key_purge', k, 'POST', '/v1/x', 'h', 'completed', now() - interval '25 hours' from unnest(${keys}::text[]) as k
    `.execute(database.db);
    await claimIdempotencyKey(database.db, { ...claim('young'), apiKeyId: 'key_purge' });
    await purgeIdempotencyRecords(database.db);
    const left = await database.db
      .selectFrom('idempotency_records')
      .select('idempotency_key')
      .where('api_key_id', '=', 'key_purge')
      .execute();
    expect(left.map((row) => row.idempotency_key)).toEqual(['young']);
  });
});
