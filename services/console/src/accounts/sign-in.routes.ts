import type { Request, Router } from 'express';
import { AppError } from '@partner/contracts';
import { ZPasswordSignIn, ZSetPassword, ZSignInLinkRedeem, ZSignInLinkRequest } from '@partner/contracts/console';
import { parseWith } from '@partner/http';
import { findAccountById, setPasswordHash } from './accounts.repository.js';
import { accountActor } from './actor.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { deleteAccountSessions } from './sessions.repository.js';
import { presentSession, redeemLink, requestSignInLink, signInWithPassword, type SignInDeps } from './sign-in.service.js';

const clientOf = (req: Request) => req.ip ?? 'unknown';
/** How long after a sign-in by e-mailed link the password may be replaced without the current one. */
const MAILBOX_PROOF_MS = 15 * 60_000;

/** Signing in and out of the dashboard, and the signed-in person's own account. */
export function registerSignInRoutes(router: Router, deps: SignInDeps): void {
  router.post('/console/sign-in/password', async (req, res) => {
    const body = parseWith(ZPasswordSignIn, req.body, 'body');
    // The audit trail records who signed in.
    req.actor = await signInWithPassword(deps, res, { ...body, client: clientOf(req) });
    res.json({ data: presentSession(req.actor) });
  });
  router.post('/console/sign-in/link', async (req, res) => {
    const body = parseWith(ZSignInLinkRequest, req.body, 'body');
    await requestSignInLink(deps, { ...body, client: clientOf(req) });
    res.status(202).json({ data: { email: body.email, message: 'If this address has an account, a sign-in link is on its way.' } });
  });
  router.post('/console/sign-in/link/redeem', async (req, res) => {
    const body = parseWith(ZSignInLinkRedeem, req.body, 'body');
    req.actor = await redeemLink(deps, res, { token: body.token, client: clientOf(req) });
    res.json({ data: presentSession(req.actor) });
  });

  router.get('/console/session', (req, res) => {
    res.json({ data: req.actor ? presentSession(req.actor) : null });
  });
  router.delete('/console/session', async (req, res) => {
    const actor = accountActor(req);
    await deps.sessions.end(res, actor.session.tokenHash);
    res.json({ data: { signedOut: true } });
  });
  router.post('/console/session/sign-out-everywhere', async (req, res) => {
    const actor = accountActor(req);
    const ended = await deleteAccountSessions(deps.db, actor.account.id);
    deps.sessions.clear(res);
    res.json({ data: { signedOut: true, sessionsEnded: ended } });
  });
  router.put('/console/account/password', async (req, res) => {
    const actor = accountActor(req);
    const body = parseWith(ZSetPassword, req.body, 'body');
    const account = await findAccountById(deps.db, actor.account.id);
    // Guessing the current password from a stolen session is slowed like signing in.
    await deps.signInLimits.take({ email: actor.account.email, client: clientOf(req) });
    // Signed in by an e-mailed link a moment ago: reading the mailbox is proof enough, so a forgotten
    // password, or one set by whoever held a stolen session, can be replaced.
    const provenAt = actor.session.mailboxProvenAt;
    const mailboxJustProven = provenAt !== null && deps.now().getTime() - provenAt.getTime() < MAILBOX_PROOF_MS;
    if (account?.password_hash && !mailboxJustProven) {
      if (!body.currentPassword)
        throw new AppError('invalid_request', 'Give your current password to change it, or sign in again by e-mailed link first.', {
          param: 'currentPassword',
        });
      if (!(await verifyPassword(body.currentPassword, account.password_hash))) {
        throw new AppError('invalid_credentials', 'The current password is not right.', { param: 'currentPassword' });
      }
    }
    await setPasswordHash(deps.db, actor.account.id, await hashPassword(body.password));
    // Whoever knew the old password is signed out; this browser stays in.
    const ended = await deleteAccountSessions(deps.db, actor.account.id, actor.session.tokenHash);
    res.json({ data: { passwordSet: true, otherSessionsEnded: ended } });
  });
}
