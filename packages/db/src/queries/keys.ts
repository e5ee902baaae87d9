import type { ApiKeyRow, NewApiKey } from '../schema.js';
import type { Executor } from './executor.js';

export async function insertApiKey(db: Executor, row: NewApiKey): Promise<ApiKeyRow> {
  return db.insertInto('api_keys').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function findApiKeyById(db: Executor, id: string): Promise<ApiKeyRow | undefined> {
  return db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function revokeApiKey(db: Executor, id: string, at: Date): Promise<ApiKeyRow | undefined> {
  return db
    .updateTable('api_keys')
    .set({ revoked_at: at })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
}

export async function listApiKeysByOwner(db: Executor, owner: { restaurantId?: string; integratorOrgId?: string }) {
  let query = db.selectFrom('api_keys').selectAll().orderBy('created_at', 'desc');
  if (owner.restaurantId) query = query.where('restaurant_id', '=', owner.restaurantId);
  if (owner.integratorOrgId) query = query.where('integrator_org_id', '=', owner.integratorOrgId);
  return query.execute();
}

/** What the gateway needs to authenticate a request: the key and its owner, in one indexed query. */
export interface KeyWithOwner {
  key: ApiKeyRow;
  owner: { kind: 'restaurant' | 'integrator'; id: string; name: string; slug: string; suspended: boolean };
}

export async function findKeyWithOwnerByHash(db: Executor, keyHash: string): Promise<KeyWithOwner | undefined> {
  const row = await db
    .selectFrom('api_keys as k')
    .leftJoin('restaurants as r', 'r.id', 'k.restaurant_id')
    .leftJoin('integrator_orgs as o', 'o.id', 'k.integrator_org_id')
    .selectAll('k')
    .select([
      'r.name as r_name',
      'r.slug as r_slug',
      'r.suspended as r_suspended',
      'o.name as o_name',
      'o.slug as o_slug',
      'o.suspended as o_suspended',
    ])
    .where('k.key_hash', '=', keyHash)
    .executeTakeFirst();
  if (!row) return undefined;
  const { r_name, r_slug, r_suspended, o_name, o_slug, o_suspended, ...key } = row;
  const owner = key.restaurant_id
    ? { kind: 'restaurant' as const, id: key.restaurant_id, name: r_name ?? '', slug: r_slug ?? '', suspended: r_suspended ?? false }
    : {
        kind: 'integrator' as const,
        id: key.integrator_org_id ?? '',
        name: o_name ?? '',
        slug: o_slug ?? '',
        suspended: o_suspended ?? false,
      };
  return { key, owner };
}
