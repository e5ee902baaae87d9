import { randomBytes } from 'node:crypto';
import type { Response } from 'express';
import { AppError } from '@partner/contracts';
import type { TSession } from '@partner/contracts/console';
import type { AccountRow, Db } from '@partner/db';
import { findAccountByEmail, findAccountById, listMemberships } from './accounts.repository.js';
import type { AccountActor, ConsoleActor } from './actor.js';
import { verifyPassword } from './passwords.js';
import { insertSignInLink, redeemSignInLink } from './sessions.repository.js';
import { tokenDigest, type Sessions } from './sessions.js';
import type { SignInLimits } from './sign-in-limits.js';
import type { SignInMailer } from './sign-in-mailer.js';

export interface SignInDeps {
  db: Db;
  now: () => Date;
  sessions: Sessions;
  signInLimits: SignInLimits;
  /** Null when no SMTP server is configured: sign-in by e-mail link is off. */
  signInMailer: SignInMailer | null;
  /** The dashboard's origin: links point at its sign-in page. */
  publicUrl: string;
}

const LINK_TTL_MS = 15 * 60_000;
/** An invitation's link waits longer for its reader than a link they asked for. */
export const INVITATION_TTL_MS = 7 * 24 * 3600_000;

export async function signInWithPassword(deps: SignInDeps, res: Response, attempt: { email: string; password: string; client: string }) {
  await deps.signInLimits.take(attempt);
  const account = await findAccountByEmail(deps.db, attempt.email);
  // The hash is checked whether or not the account exists, so both answers take as long.
  const matches = await verifyPassword(attempt.password, account?.password_hash ?? null);
  if (!account || !matches) throw new AppError('invalid_credentials', 'The e-mail address or the password is not right.');
  return startSession(deps, res, account, false);
}

/** Always the same answer, whether or not the address has an account: nobody learns who signs in here. */
export async function requestSignInLink(deps: SignInDeps, request: { email: string; client: string }): Promise<void> {
  if (!deps.signInMailer)
    throw new AppError('not_found', 'Sign-in by e-mail link is not enabled here (SMTP_URL). Sign in with a password.');
  await deps.signInLimits.take(request);
  const account = await findAccountByEmail(deps.db, request.email);
  if (!account) return;
  await mailSignInLink(deps, account, {
    ttlMs: LINK_TTL_MS,
    subject: 'Your sign-in link',
    intro: 'Open this link to sign in to the dashboard. It works once, for the next 15 minutes:',
  });
}

/** Makes a one-time link for the account and e-mails it; false when no e-mail is configured (nothing sent). */
export async function mailSignInLink(
  deps: SignInDeps,
  account: AccountRow,
  mail: { ttlMs: number; subject: string; intro: string },
): Promise<boolean> {
  if (!deps.signInMailer) return false;
  const token = randomBytes(32).toString('base64url');
  await insertSignInLink(deps.db, {
    tokenHash: tokenDigest(token),
    accountId: account.id,
    expiresAt: new Date(deps.now().getTime() + mail.ttlMs),
  });
  // In the fragment: browsers send it to no server, so it stays out of every access log on the way.
  const link = new URL(`/sign-in#token=${token}`, deps.publicUrl).toString();
  deps.signInMailer.send({
    to: account.email,
    subject: mail.subject,
    text: `${mail.intro}\n\n${link}\n\nIf you did not ask for it, ignore this e-mail: nothing happens until the link is opened.\n`,
  });
  return true;
}

export async function redeemLink(deps: SignInDeps, res: Response, request: { token: string; client: string }) {
  await deps.signInLimits.take({ client: request.client });
  const accountId = await redeemSignInLink(deps.db, tokenDigest(request.token), deps.now());
  const account = accountId && (await findAccountById(deps.db, accountId));
  if (!account)
    throw new AppError('invalid_credentials', 'This sign-in link is unknown, was already used, or has expired. Ask for a new one.');
  return startSession(deps, res, account, true);
}

async function startSession(deps: SignInDeps, res: Response, account: AccountRow, byLink: boolean): Promise<AccountActor> {
  const session = await deps.sessions.start(res, account, deps.now(), byLink);
  return { kind: 'account', account, session, memberships: await listMemberships(deps.db, account.id) };
}

export function presentSession(actor: ConsoleActor): TSession {
  if (actor.kind === 'operator') return { operator: true, account: null, memberships: [], csrfToken: null, expiresAt: null };
  return {
    operator: false,
    account: {
      id: actor.account.id,
      email: actor.account.email,
      name: actor.account.name,
      hasPassword: actor.account.password_hash !== null,
    },
    memberships: actor.memberships,
    csrfToken: actor.session.csrfToken,
    expiresAt: actor.session.expiresAt.toISOString(),
  };
}
