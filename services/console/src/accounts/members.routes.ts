import type { Router } from 'express';
import { AppError } from '@partner/contracts';
import { type TMember, ZInviteMember } from '@partner/contracts/console';
import { findRestaurantById } from '@partner/db';
import { newId, parseWith } from '@partner/http';
import {
  countOwners,
  deleteMembership,
  ensureAccount,
  insertMembership,
  listMembers,
  lockTeam,
  type OwnerKind,
} from './accounts.repository.js';
import { findIntegratorOrgById } from '../integrators/integrators.repository.js';
import { actorOf, type OwnerRef, reach, requireOwnerRole } from './actor.js';
import { INVITATION_TTL_MS, mailSignInLink, type SignInDeps } from './sign-in.service.js';

const OWNERS: Array<[segment: string, kind: OwnerKind]> = [
  ['restaurants', 'restaurant'],
  ['integrators', 'integrator'],
];

/**
 * A restaurant's or integrator org's team: its owners see and change it, members see it. Inviting
 * an address makes its account when there is none and e-mails it a sign-in link.
 */
export function registerMemberRoutes(router: Router, deps: SignInDeps): void {
  for (const [segment, kind] of OWNERS) {
    const ownerOf = (id: string): OwnerRef => ({ kind, id });
    router.get(`/console/${segment}/:id/members`, async (req, res) => {
      const owner = ownerOf(req.params.id);
      reach(actorOf(req), owner);
      res.json({ data: (await listMembers(deps.db, owner)).map(presentMember) });
    });
    router.post(`/console/${segment}/:id/members`, async (req, res) => {
      const owner = ownerOf(req.params.id);
      requireOwnerRole(actorOf(req), owner, 'change its team');
      const body = parseWith(ZInviteMember, req.body, 'body');
      const name = await ownerName(deps, owner);
      const account = await deps.db.transaction().execute(async (tx) => {
        const account = await ensureAccount(tx, { id: newId('acc'), email: body.email, name: body.name ?? null });
        // Not an invitation again (nor another e-mail), and never a role changed by the way.
        if (!(await insertMembership(tx, account.id, owner, body.role))) {
          throw new AppError('conflict', `${body.email} is on this team already.`, { param: 'email' });
        }
        return account;
      });
      const linkSent = await mailSignInLink(deps, account, {
        ttlMs: INVITATION_TTL_MS,
        subject: `You are invited to manage ${name}`,
        intro: `You were added to ${name} on the dashboard. Open this link to sign in; it works once, for 7 days:`,
      });
      const member = (await listMembers(deps.db, owner)).find((m) => m.id === account.id)!;
      // Without e-mail (no SMTP_URL) nothing is sent: the person signs in with a password instead.
      res.status(201).json({ data: presentMember(member), meta: { linkSent } });
    });
    router.delete(`/console/${segment}/:id/members/:accountId`, async (req, res) => {
      const owner = ownerOf(req.params.id);
      requireOwnerRole(actorOf(req), owner, 'change its team');
      await deps.db.transaction().execute(async (tx) => {
        // The team is locked first: two owners removing each other at once cannot leave it with none.
        await lockTeam(tx, owner);
        const role = await deleteMembership(tx, req.params.accountId, owner);
        if (!role) throw new AppError('not_found', 'No such member.');
        // Only removing an owner can take the last one (a team an operator set up may have none yet).
        if (role === 'owner' && (await countOwners(tx, owner)) === 0) throw new AppError('conflict', `A ${kind} keeps at least one owner.`);
      });
      res.json({ data: { accountId: req.params.accountId, removed: true } });
    });
  }
}

async function ownerName(deps: SignInDeps, owner: OwnerRef): Promise<string> {
  const row = owner.kind === 'restaurant' ? await findRestaurantById(deps.db, owner.id) : await findIntegratorOrgById(deps.db, owner.id);
  if (!row) throw new AppError('not_found', owner.kind === 'restaurant' ? 'No such restaurant.' : 'No such integrator.');
  return row.name;
}

const presentMember = (row: Awaited<ReturnType<typeof listMembers>>[number]): TMember => ({
  accountId: row.id,
  email: row.email,
  name: row.name,
  role: row.role,
  since: row.created_at.toISOString(),
});
