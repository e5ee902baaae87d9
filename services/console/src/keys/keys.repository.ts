import { sql } from 'kysely';
import type { ApiKeyRow, Executor, NewApiKey } from '@partner/db';

export async function insertApiKey(db: Executor, row: NewApiKey): Promise<ApiKeyRow> {
  return db.insertInto('api_keys').values(row).returningAll().executeTakeFirstOrThrow();
}

/**
 * A key the platform derives and manages: inserted when missing; a revoked one, or one allowing another
 * origin, is set right. True when the row changed (replicas must forget what they cached).
 */
export async function upsertManagedKey(db: Executor, row: NewApiKey): Promise<boolean> {
  const changed = await db
    .insertInto('api_keys')
    .values(row)
    .onConflict((conflict) =>
      conflict
        .column('key_hash')
        .doUpdateSet((eb) => ({ revoked_at: null, allowed_origins: eb.ref('excluded.allowed_origins') }))
        .where((eb) =>
          eb.or([eb('api_keys.revoked_at', 'is not', null), eb('api_keys.allowed_origins', '!=', eb.ref('excluded.allowed_origins'))]),
        ),
    )
    .returning('id')
    .executeTakeFirst();
  return changed !== undefined;
}

export async function findApiKeyById(db: Executor, id: string): Promise<ApiKeyRow | undefined> {
  return db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Revokes the key at `at` unless it is revoked already (its first revocation time stays), and returns it
 * either way; undefined when no key has this id. One statement: a concurrent revocation, waited for on
 * the row lock, is the one whose time is kept.
 */
export async function revokeApiKey(db: Executor, id: string, at: Date): Promise<ApiKeyRow | undefined> {
  return db
    .updateTable('api_keys')
    .set((eb) => ({ revoked_at: eb.fn.coalesce('revoked_at', eb.val(at)) }))
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

export async function listApiKeysByOwner(db: Executor, owner: { restaurantId?: string; integratorOrgId?: string }) {
  let query = db.selectFrom('api_keys').selectAll().orderBy('created_at', 'desc');
  if (owner.restaurantId) query = query.where('restaurant_id', '=', owner.restaurantId);
  if (owner.integratorOrgId) query = query.where('integrator_org_id', '=', owner.integratorOrgId);
  return query.execute();
}

/** Takes the owner's key lock until the transaction ends and counts its usable test keys. */
export async function lockOwnerTestKeys(
  tx: Executor,
  owner: { restaurantId?: string; integratorOrgId?: string },
  now: Date,
  /** Keys the platform manages for the owner (the dashboard's preview key): not the owner's to count. */
  notCounted: readonly string[] = [],
): Promise<number> {
  const ownerId = owner.restaurantId ?? owner.integratorOrgId!;
  await sql`select pg_advisory_xact_lock(${0x4b59}, hashtext(${ownerId}))`.execute(tx);
  const column = owner.restaurantId ? 'restaurant_id' : 'integrator_org_id';
  const { count } = await tx
    .selectFrom('api_keys')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where(column, '=', ownerId)
    .where('environment', '=', 'test')
    .where('revoked_at', 'is', null)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .$if(notCounted.length > 0, (query) => query.where('key_hash', 'not in', notCounted))
    .executeTakeFirstOrThrow();
  return Number(count);
}

/** Revokes (at `at`) or restores (null) the key with this hash: the menu page's derived key. */
export async function setMenuPageKeyRevoked(db: Executor, keyHash: string, at: Date | null): Promise<void> {
  await db.updateTable('api_keys').set({ revoked_at: at }).where('key_hash', '=', keyHash).execute();
}
