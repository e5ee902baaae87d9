import { sql } from 'kysely';
import type { ConnectLinkRow, Executor, GrantRow } from '@partner/db';

export async function insertConnectLink(
  db: Executor,
  row: { token_hash: string; integrator_org_id: string; scopes: string[]; expires_at: Date },
): Promise<ConnectLinkRow> {
  return db.insertInto('connect_links').values(row).returningAll().executeTakeFirstOrThrow();
}

/** An unspent, unexpired link, left as it is (the consent screen shows it before the owner approves). */
export async function findUsableConnectLink(db: Executor, tokenHash: string, now: Date): Promise<ConnectLinkRow | undefined> {
  return db
    .selectFrom('connect_links')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

/** An integrator's links still waiting for an owner, soonest to expire first. */
export async function listPendingConnectLinks(db: Executor, integratorOrgId: string, now: Date): Promise<ConnectLinkRow[]> {
  return db
    .selectFrom('connect_links')
    .selectAll()
    .where('integrator_org_id', '=', integratorOrgId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('expires_at')
    .execute();
}

/** Marks an unused, unexpired link used and returns it; a second approval finds nothing. */
export async function consumeConnectLink(db: Executor, tokenHash: string, now: Date): Promise<ConnectLinkRow | undefined> {
  return db
    .updateTable('connect_links')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returningAll()
    .executeTakeFirst();
}

const GRANT_LOCK_CLASS = 0x4752; // "GR": the advisory lock space of grant approvals

/**
 * Approvals for one restaurant and integrator run one at a time, until the transaction ends: two links
 * approved at once would each find no active grant and both insert one (grants_one_active refuses the
 * second), where the second should widen the first.
 */
export async function lockGrantPair(tx: Executor, restaurantId: string, integratorOrgId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(${GRANT_LOCK_CLASS}, hashtext(${`${restaurantId}:${integratorOrgId}`}))`.execute(tx);
}

export async function findActiveGrant(db: Executor, restaurantId: string, integratorOrgId: string): Promise<GrantRow | undefined> {
  return db
    .selectFrom('grants')
    .selectAll()
    .where('restaurant_id', '=', restaurantId)
    .where('integrator_org_id', '=', integratorOrgId)
    .where('status', '=', 'active')
    .executeTakeFirst();
}

export async function insertGrant(
  db: Executor,
  row: { id: string; restaurant_id: string; integrator_org_id: string; scopes: string[] },
): Promise<GrantRow> {
  return db
    .insertInto('grants')
    .values({ ...row, status: 'active' })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function updateGrantScopes(db: Executor, id: string, scopes: string[]): Promise<GrantRow> {
  return db.updateTable('grants').set({ scopes }).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

export async function revokeGrant(db: Executor, id: string, at: Date): Promise<GrantRow | undefined> {
  return db
    .updateTable('grants')
    .set({ status: 'revoked', revoked_at: at })
    .where('id', '=', id)
    .where('status', '=', 'active')
    .returningAll()
    .executeTakeFirst();
}

export async function findGrantById(db: Executor, id: string): Promise<GrantRow | undefined> {
  return db.selectFrom('grants').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Grants, newest first, each with the names of its two sides (the dashboard shows names, not ids). */
export async function listGrants(
  db: Executor,
  filter: { restaurantId?: string; integratorOrgId?: string },
): Promise<Array<GrantRow & { restaurant_name: string; integrator_name: string }>> {
  let query = db
    .selectFrom('grants as g')
    .innerJoin('restaurants as r', 'r.id', 'g.restaurant_id')
    .innerJoin('integrator_orgs as o', 'o.id', 'g.integrator_org_id')
    .selectAll('g')
    .select(['r.name as restaurant_name', 'o.name as integrator_name'])
    .orderBy('g.created_at', 'desc');
  if (filter.restaurantId) query = query.where('g.restaurant_id', '=', filter.restaurantId);
  if (filter.integratorOrgId) query = query.where('g.integrator_org_id', '=', filter.integratorOrgId);
  return query.execute();
}
