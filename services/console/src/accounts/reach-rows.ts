import { AppError } from '@partner/contracts';
import type { ApiKeyRow, Executor } from '@partner/db';
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

/**
 * A key its caller has read already (undefined: none has this id), reached through its owner: a key of
 * an owner the actor may not manage is the same 404 as a missing one. Returns the key, reached.
 */
export function reachKey<Key extends Pick<ApiKeyRow, 'restaurant_id' | 'integrator_org_id'>>(
  actor: ConsoleActor,
  key: Key | undefined,
): Key {
  if (!key) throw new AppError('not_found', 'No such key.');
  const owner: OwnerRef = key.restaurant_id
    ? { kind: 'restaurant', id: key.restaurant_id }
    : { kind: 'integrator', id: key.integrator_org_id! };
  reach(actor, owner, 'No such key.');
  return key;
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
