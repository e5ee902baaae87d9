import { sql } from 'kysely';
import type { AccountRow, Executor } from '@partner/db';
import type { TRole } from '@partner/contracts/console';

export type OwnerKind = 'restaurant' | 'integrator';
export interface MembershipView {
  kind: OwnerKind;
  id: string;
  name: string;
  role: TRole;
}

export async function findAccountById(db: Executor, id: string): Promise<AccountRow | undefined> {
  return db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findAccountByEmail(db: Executor, email: string): Promise<AccountRow | undefined> {
  return db.selectFrom('accounts').selectAll().where('email', '=', email).executeTakeFirst();
}

/** The account for `email`, made when there is none yet (an invitation or a seed). */
export async function ensureAccount(db: Executor, account: { id: string; email: string; name: string | null }): Promise<AccountRow> {
  const inserted = await db
    .insertInto('accounts')
    .values(account)
    .onConflict((conflict) => conflict.column('email').doNothing())
    .returningAll()
    .executeTakeFirst();
  return inserted ?? (await db.selectFrom('accounts').selectAll().where('email', '=', account.email).executeTakeFirstOrThrow());
}

export async function setPasswordHash(db: Executor, accountId: string, passwordHash: string): Promise<void> {
  await db
    .updateTable('accounts')
    .set({ password_hash: passwordHash, updated_at: sql<Date>`now()` })
    .where('id', '=', accountId)
    .execute();
}

/** Every restaurant and integrator org the account may manage, with their names, by name. */
export async function listMemberships(db: Executor, accountId: string): Promise<MembershipView[]> {
  const rows = await db
    .selectFrom('memberships as m')
    .leftJoin('restaurants as r', 'r.id', 'm.restaurant_id')
    .leftJoin('integrator_orgs as o', 'o.id', 'm.integrator_org_id')
    .select(['m.restaurant_id', 'm.integrator_org_id', 'm.role', 'r.name as restaurant_name', 'o.name as integrator_name'])
    .where('m.account_id', '=', accountId)
    .orderBy(sql`coalesce(r.name, o.name)`)
    .execute();
  return rows.map((row) =>
    row.restaurant_id
      ? { kind: 'restaurant', id: row.restaurant_id, name: row.restaurant_name ?? '', role: row.role }
      : { kind: 'integrator', id: row.integrator_org_id!, name: row.integrator_name ?? '', role: row.role },
  );
}

const ownerColumn = (kind: OwnerKind) => (kind === 'restaurant' ? 'restaurant_id' : 'integrator_org_id');

/** Adds the account to the owner's team: false when it is on it already (its role is kept). */
export async function insertMembership(
  db: Executor,
  accountId: string,
  owner: { kind: OwnerKind; id: string },
  role: TRole,
): Promise<boolean> {
  const { numInsertedOrUpdatedRows } = await db
    .insertInto('memberships')
    .values({
      account_id: accountId,
      restaurant_id: owner.kind === 'restaurant' ? owner.id : null,
      integrator_org_id: owner.kind === 'integrator' ? owner.id : null,
      role,
    })
    .onConflict((conflict) =>
      conflict
        .columns([ownerColumn(owner.kind), 'account_id'])
        .where(ownerColumn(owner.kind), 'is not', null)
        .doNothing(),
    )
    .executeTakeFirst();
  return (numInsertedOrUpdatedRows ?? 0n) > 0n;
}

/** Removes the account from the owner's team; the role it had there, or undefined when it was none of it. */
export async function deleteMembership(
  db: Executor,
  accountId: string,
  owner: { kind: OwnerKind; id: string },
): Promise<TRole | undefined> {
  const removed = await db
    .deleteFrom('memberships')
    .where(ownerColumn(owner.kind), '=', owner.id)
    .where('account_id', '=', accountId)
    .returning('role')
    .executeTakeFirst();
  return removed?.role;
}

/** The owner's team, owners first, then by e-mail. */
export async function listMembers(db: Executor, owner: { kind: OwnerKind; id: string }) {
  return db
    .selectFrom('memberships as m')
    .innerJoin('accounts as a', 'a.id', 'm.account_id')
    .select(['a.id', 'a.email', 'a.name', 'm.role', 'm.created_at'])
    .where(`m.${ownerColumn(owner.kind)}`, '=', owner.id)
    .orderBy('m.role', 'desc')
    .orderBy('a.email')
    .execute();
}

/** Holds every membership of the owner's team until the transaction ends. */
export async function lockTeam(tx: Executor, owner: { kind: OwnerKind; id: string }): Promise<void> {
  await tx.selectFrom('memberships').select('account_id').where(ownerColumn(owner.kind), '=', owner.id).forUpdate().execute();
}

/** How many owners the team has: the last one cannot leave. */
export async function countOwners(db: Executor, owner: { kind: OwnerKind; id: string }): Promise<number> {
  const row = await db
    .selectFrom('memberships')
    .select((eb) => eb.fn.countAll<string>().as('owners'))
    .where(ownerColumn(owner.kind), '=', owner.id)
    .where('role', '=', 'owner')
    .executeTakeFirstOrThrow();
  return Number(row.owners);
}
