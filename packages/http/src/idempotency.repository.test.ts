import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase, type TestDatabase } from '@partner/testing';
import { claimIdempotencyKey, renewIdempotencyClaim } from './idempotency.repository.js';

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
