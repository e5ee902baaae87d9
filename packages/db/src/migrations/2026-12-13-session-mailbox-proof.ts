import { type Kysely, sql } from 'kysely';

// Frozen in time. When a session's holder last proved they read the account's mailbox (signed in by an
// e-mailed link): for a while after, the password may be replaced without the current one (a forgotten
// one, or one set by whoever held a stolen session).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table account_sessions add column mailbox_proven_at timestamptz(3)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table account_sessions drop column mailbox_proven_at`.execute(db);
}
