import { AppError } from '@partner/contracts';
import type { Executor } from '@partner/db';
import { type ConsoleActor, type OwnerRef, reach, reachAny } from './actor.js';

/**
 * Routes that name a row by its own id reach it through its owner: a row of an owner the actor may not
 * manage is the same 404 as a row that does not exist. Operators reach every row without a lookup.
 */
export async function reachItem(db: Executor, actor: ConsoleActor, itemId: string): Promise<void> {
  if (actor.kind === 'operator') return;
  const row = await db.selectFrom('items').select('restaurant_id').where('id', '=', itemId).executeTakeFirst();
  if (!row) throw new AppError('not_found', 'No such item.');
  reach(actor, { kind: 'restaurant', id: row.restaurant_id }, 'No such item.');
}

export async function reachKey(db: Executor, actor: ConsoleActor, keyId: string): Promise<void> {
  if (actor.kind === 'operator') return;
  const row = await db.selectFrom('api_keys').select(['restaurant_id', 'integrator_org_id']).where('id', '=', keyId).executeTakeFirst();
  if (!row) throw new AppError('not_found', 'No such key.');
  const owner: OwnerRef = row.restaurant_id
    ? { kind: 'restaurant', id: row.restaurant_id }
    : { kind: 'integrator', id: row.integrator_org_id! };
  reach(actor, owner, 'No such key.');
}

/** A grant is its restaurant's and its integrator's: either side may see and revoke it. */
export async function reachGrant(db: Executor, actor: ConsoleActor, grantId: string): Promise<void> {
  if (actor.kind === 'operator') return;
  const row = await db.selectFrom('grants').select(['restaurant_id', 'integrator_org_id']).where('id', '=', grantId).executeTakeFirst();
  if (!row) throw new AppError('not_found', 'No such grant.');
  reachAny(
    actor,
    [
      { kind: 'restaurant', id: row.restaurant_id },
      { kind: 'integrator', id: row.integrator_org_id },
    ],
    'No such grant.',
  );
}
