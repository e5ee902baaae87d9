import type { AccountRow } from '@partner/db';
import { AppError } from '@partner/contracts';
import type { MembershipView, OwnerKind } from './accounts.repository.js';

/** Who is calling console: platform staff with the admin token, or a person signed in to the dashboard. */
export type ConsoleActor =
  | { kind: 'operator' }
  | {
      kind: 'account';
      account: AccountRow;
      session: { tokenHash: Buffer; csrfToken: string; expiresAt: Date; mailboxProvenAt: Date | null };
      /** Read on every request, so that removing someone from a team takes effect at once. */
      memberships: MembershipView[];
    };
export type AccountActor = Extract<ConsoleActor, { kind: 'account' }>;

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** Set by console's guard; absent only on the sign-in routes. */
      actor?: ConsoleActor;
    }
  }
}

export const OPERATOR: ConsoleActor = { kind: 'operator' };

/** The audit trail's `actor`: `operator`, or the signed-in account's id. */
export const actorName = (actor: ConsoleActor): string => (actor.kind === 'operator' ? 'operator' : actor.account.id);

export interface OwnerRef {
  kind: OwnerKind;
  id: string;
}

const MISSING: Record<OwnerKind, string> = { restaurant: 'No such restaurant.', integrator: 'No such integrator.' };

/** The guard ran on every route but sign-in: an actor is always there. */
export function actorOf(req: { actor?: ConsoleActor }): ConsoleActor {
  if (!req.actor) throw new AppError('unauthorized', 'Sign in first.');
  return req.actor;
}

export function accountActor(req: { actor?: ConsoleActor }): AccountActor {
  const actor = actorOf(req);
  if (actor.kind !== 'account') throw new AppError('forbidden', 'This is for people signed in to the dashboard, not the admin token.');
  return actor;
}

const membershipOf = (actor: AccountActor, owner: OwnerRef) => actor.memberships.find((m) => m.kind === owner.kind && m.id === owner.id);

/**
 * Throws the owner's own 404 unless the actor may manage it: another owner's restaurant is not told
 * apart from one that does not exist. Operators reach every owner.
 */
export function reach(actor: ConsoleActor, owner: OwnerRef, message = MISSING[owner.kind]): void {
  if (actor.kind === 'account' && !membershipOf(actor, owner)) throw new AppError('not_found', message);
}

/** Reachable through any of `owners` (a grant is both its restaurant's and its integrator's). */
export function reachAny(actor: ConsoleActor, owners: OwnerRef[], message: string): void {
  if (actor.kind === 'account' && !owners.some((owner) => membershipOf(actor, owner))) throw new AppError('not_found', message);
}

/** Changing the team and consenting for a restaurant are its owners' (and operators'); members may look. */
export function requireOwnerRole(actor: ConsoleActor, owner: OwnerRef, action: string): void {
  reach(actor, owner);
  if (actor.kind === 'account' && membershipOf(actor, owner)!.role !== 'owner') {
    throw new AppError('forbidden', `Only an owner of this ${owner.kind} can ${action}.`);
  }
}

/** Platform-wide settings and billing are the operators' (the admin token's) alone. */
export function requireOperator(actor: ConsoleActor, what: string): void {
  if (actor.kind !== 'operator') throw new AppError('forbidden', `Only platform operators can ${what}.`);
}

/** The owners the actor may manage, or null for every owner (operators). */
export function reachableOwners(actor: ConsoleActor, kind: OwnerKind): string[] | null {
  return actor.kind === 'operator' ? null : actor.memberships.filter((m) => m.kind === kind).map((m) => m.id);
}
