import { sql } from 'kysely';
import type { Executor, IntegratorOrgRow } from '@partner/db';

export async function insertIntegratorOrg(
  db: Executor,
  row: { id: string; name: string; slug: string; contact_email?: string | null },
): Promise<IntegratorOrgRow> {
  return db.insertInto('integrator_orgs').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function findIntegratorOrgById(db: Executor, id: string): Promise<IntegratorOrgRow | undefined> {
  return db.selectFrom('integrator_orgs').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function updateIntegratorOrg(
  db: Executor,
  id: string,
  changes: { name?: string; suspended?: boolean; contact_email?: string | null },
): Promise<IntegratorOrgRow | undefined> {
  return db
    .updateTable('integrator_orgs')
    .set({ ...changes, updated_at: sql<Date>`now()` })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

/** The orgs given, or every one when null, by name. */
export async function listIntegratorOrgs(db: Executor, ids: string[] | null): Promise<IntegratorOrgRow[]> {
  if (ids?.length === 0) return [];
  let query = db.selectFrom('integrator_orgs').selectAll().orderBy('name').orderBy('id');
  if (ids) query = query.where('id', 'in', ids);
  return query.execute();
}
