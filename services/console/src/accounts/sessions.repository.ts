import type { AccountRow, Executor } from '@partner/db';

export async function insertSession(
  db: Executor,
  session: { tokenHash: Buffer; accountId: string; csrfToken: string; expiresAt: Date; mailboxProvenAt: Date | null },
): Promise<void> {
  await db
    .insertInto('account_sessions')
    .values({
      token_hash: session.tokenHash,
      account_id: session.accountId,
      csrf_token: session.csrfToken,
      expires_at: session.expiresAt,
      mailbox_proven_at: session.mailboxProvenAt,
    })
    .execute();
}

/** The live session with this token digest, and its account. */
export async function findLiveSession(db: Executor, tokenHash: Buffer, now: Date) {
  const row = await db
    .selectFrom('account_sessions as s')
    .innerJoin('accounts as a', 'a.id', 's.account_id')
    .select([
      's.csrf_token',
      's.expires_at',
      's.mailbox_proven_at',
      'a.id',
      'a.email',
      'a.name',
      'a.password_hash',
      'a.created_at',
      'a.updated_at',
    ])
    .where('s.token_hash', '=', tokenHash)
    .where('s.expires_at', '>', now)
    .executeTakeFirst();
  if (!row) return undefined;
  const { csrf_token, expires_at, mailbox_proven_at, ...account } = row;
  return { csrfToken: csrf_token, expiresAt: expires_at, mailboxProvenAt: mailbox_proven_at, account: account satisfies AccountRow };
}

export async function deleteSession(db: Executor, tokenHash: Buffer): Promise<void> {
  await db.deleteFrom('account_sessions').where('token_hash', '=', tokenHash).execute();
}

/**
 * Sign-out everywhere; with `except`, every other session (after a password change). The account's
 * unused sign-in links go too: one sitting in a mailbox someone else reads would sign them in again.
 * Returns the sessions ended.
 */
export async function deleteAccountSessions(db: Executor, accountId: string, except?: Buffer): Promise<number> {
  let query = db.deleteFrom('account_sessions').where('account_id', '=', accountId);
  if (except) query = query.where('token_hash', '!=', except);
  const result = await query.executeTakeFirst();
  await db.deleteFrom('sign_in_links').where('account_id', '=', accountId).where('used_at', 'is', null).execute();
  return Number(result.numDeletedRows);
}

export async function insertSignInLink(db: Executor, link: { tokenHash: Buffer; accountId: string; expiresAt: Date }): Promise<void> {
  await db
    .insertInto('sign_in_links')
    .values({ token_hash: link.tokenHash, account_id: link.accountId, expires_at: link.expiresAt })
    .execute();
}

/** Uses the link once: the account it signs in, or nothing when it is unknown, used or expired. */
export async function redeemSignInLink(db: Executor, tokenHash: Buffer, now: Date): Promise<string | undefined> {
  const row = await db
    .updateTable('sign_in_links')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('account_id')
    .executeTakeFirst();
  return row?.account_id;
}

/** Housekeeping: sessions and links past their expiry are of no use to anyone. */
export async function purgeExpiredSignIns(db: Executor, now: Date): Promise<number> {
  const sessions = await db.deleteFrom('account_sessions').where('expires_at', '<=', now).executeTakeFirst();
  const links = await db.deleteFrom('sign_in_links').where('expires_at', '<=', now).executeTakeFirst();
  return Number(sessions.numDeletedRows) + Number(links.numDeletedRows);
}
