import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Executor, IdempotencyRecordRow } from '@partner/db';

export interface IdempotencyClaim {
  apiKeyId: string;
  idempotencyKey: string;
  method: string;
  path: string;
  bodyHash: string;
}

/** The claim an execution holds: its key, and the token that tells it from a later claim of the key. */
export interface HeldClaim {
  apiKeyId: string;
  idempotencyKey: string;
  token: string;
}

/**
 * Claims a key for one execution. The claim succeeds for a new key, for a record past the 24-hour
 * window, and for an execution abandoned mid-way (a crashed process: in progress for over a minute).
 * Otherwise the existing record comes back for the caller to replay, wait on, or refuse.
 */
export async function claimIdempotencyKey(
  db: Executor,
  claim: IdempotencyClaim,
): Promise<{ claimed: true; held: HeldClaim } | { claimed: false; existing: IdempotencyRecordRow }> {
  const token = randomUUID();
  const { rows } = await sql<{ claimed: boolean }>`
    insert into idempotency_records (api_key_id, idempotency_key, method, path, body_hash, state, claim_token)
    values (${claim.apiKeyId}, ${claim.idempotencyKey}, ${claim.method}, ${claim.path}, ${claim.bodyHash}, 'in_progress', ${token})
    on conflict (api_key_id, idempotency_key) do update
      set method = excluded.method, path = excluded.path, body_hash = excluded.body_hash, state = 'in_progress',
          response_status = null, response_body = null, response_content_type = null, created_at = now(), locked_at = now(),
          claim_token = excluded.claim_token
      where idempotency_records.created_at < now() - interval '24 hours'
         or (idempotency_records.state = 'in_progress' and idempotency_records.locked_at < now() - interval '60 seconds')
    returning true as claimed
  `.execute(db);
  if (rows[0]?.claimed) return { claimed: true, held: { apiKeyId: claim.apiKeyId, idempotencyKey: claim.idempotencyKey, token } };
  const existing = await findIdempotencyRecord(db, claim.apiKeyId, claim.idempotencyKey);
  // Deleted between the two statements (a failed execution let go of it): claim again.
  if (!existing) return claimIdempotencyKey(db, claim);
  return { claimed: false, existing };
}

export async function findIdempotencyRecord(db: Executor, apiKeyId: string, idempotencyKey: string) {
  return db
    .selectFrom('idempotency_records')
    .selectAll()
    .where('api_key_id', '=', apiKeyId)
    .where('idempotency_key', '=', idempotencyKey)
    .executeTakeFirst();
}

/** The claim's own record, as long as it is still this claim's (not taken over as abandoned since). */
const updateHeldRecord = (db: Executor, held: HeldClaim) =>
  db
    .updateTable('idempotency_records')
    .where('api_key_id', '=', held.apiKeyId)
    .where('idempotency_key', '=', held.idempotencyKey)
    .where('claim_token', '=', held.token)
    .where('state', '=', 'in_progress');

export async function completeIdempotencyKey(
  db: Executor,
  held: HeldClaim,
  response: { status: number; body: string; contentType: string | null },
): Promise<void> {
  await updateHeldRecord(db, held)
    .set({
      state: 'completed',
      response_status: response.status,
      response_body: response.body,
      response_content_type: response.contentType,
    })
    .execute();
}

/**
 * A running execution keeps its claim fresh, so that a long one (a streamed concierge turn) is never
 * taken over as abandoned while it still runs.
 */
export async function renewIdempotencyClaim(db: Executor, held: HeldClaim): Promise<void> {
  await updateHeldRecord(db, held)
    .set({ locked_at: sql<Date>`now()` })
    .execute();
}

/** A failed execution (5xx, crash) lets go of its key so that a retry runs again. */
export async function releaseIdempotencyKey(db: Executor, held: HeldClaim): Promise<void> {
  await db
    .deleteFrom('idempotency_records')
    .where('api_key_id', '=', held.apiKeyId)
    .where('idempotency_key', '=', held.idempotencyKey)
    .where('claim_token', '=', held.token)
    .where('state', '=', 'in_progress')
    .execute();
}

/** Rows one purge statement deletes: each stays well inside the pool's statement timeout. */
const PURGE_BATCH = 5_000;

export async function purgeIdempotencyRecords(db: Executor): Promise<void> {
  for (;;) {
    const result = await db
      .deleteFrom('idempotency_records')
      .where((eb) =>
        eb(
          eb.refTuple('api_key_id', 'idempotency_key'),
          'in',
          eb
            .selectFrom('idempotency_records')
            .select(['api_key_id', 'idempotency_key'])
            .where('created_at', '<', sql<Date>`now() - interval '24 hours'`)
            .limit(PURGE_BATCH)
            .$asTuple('api_key_id', 'idempotency_key'),
        ),
      )
      .executeTakeFirst();
    if (Number(result.numDeletedRows) < PURGE_BATCH) return;
  }
}
