import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase, type TestDatabase } from '@partner/testing';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  findIdempotencyRecord,
  type HeldClaim,
  purgeIdempotencyRecords,
  releaseIdempotencyKey,
  renewIdempotencyClaim,
} from './idempotency.repository.js';

let database: TestDatabase;
beforeAll(async () => {
  database = await useTestDatabase();
});
afterAll(() => database.drop());

const claim = (idempotencyKey: string, bodyHash = 'h') => ({
  apiKeyId: 'key_idem',
  idempotencyKey,
  method: 'POST',
  path: '/v1/x',
  bodyHash,
});
/** Claims the key, expecting to get it. */
const take = async (idempotencyKey: string, bodyHash?: string): Promise<HeldClaim> => {
  const result = await claimIdempotencyKey(database.db, claim(idempotencyKey, bodyHash));
  if (!result.claimed) throw new Error(`${idempotencyKey} was not claimed`);
  return result.held;
};
const lockedSecondsAgo = (idempotencyKey: string, seconds: number) =>
  sql`update idempotency_records set locked_at = now() - make_interval(secs => ${seconds}) where idempotency_key = ${idempotencyKey}`.execute(
    database.db,
  );

describe('idempotency claims', () => {
  it('are taken over once abandoned for a minute, and never while their execution renews them', async () => {
    await take('abandoned');
    await lockedSecondsAgo('abandoned', 61);
    expect((await claimIdempotencyKey(database.db, claim('abandoned'))).claimed).toBe(true);

    // The same age, but the execution renewed its claim: still running, so a retry must wait for it.
    const running = await take('long-running');
    await lockedSecondsAgo('long-running', 61);
    await renewIdempotencyClaim(database.db, running);
    const retry = await claimIdempotencyKey(database.db, claim('long-running'));
    expect(retry.claimed).toBe(false);
  });

  it('taken over, are no longer the first execution’s to renew, complete or release', async () => {
    const first = await take('taken-over');
    await lockedSecondsAgo('taken-over', 61);
    const second = await take('taken-over', 'another body');

    // The first execution wakes up: none of its writes touch the second's claim.
    await renewIdempotencyClaim(database.db, first);
    await releaseIdempotencyKey(database.db, first);
    await completeIdempotencyKey(database.db, first, { status: 201, body: '{"data":"first"}', contentType: 'application/json' });
    expect(await findIdempotencyRecord(database.db, 'key_idem', 'taken-over')).toMatchObject({
      state: 'in_progress',
      body_hash: 'another body',
    });

    await completeIdempotencyKey(database.db, second, { status: 201, body: '{"data":"second"}', contentType: 'application/json' });
    expect(await findIdempotencyRecord(database.db, 'key_idem', 'taken-over')).toMatchObject({
      state: 'completed',
      response_body: '{"data":"second"}',
    });
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
