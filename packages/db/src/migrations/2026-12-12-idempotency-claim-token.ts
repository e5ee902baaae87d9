import { type Kysely, sql } from 'kysely';

// Frozen in time. Each claim of an idempotency key gets a token of its own, and an execution settles
// or renews only the claim it holds: one taken over as abandoned is no longer its to complete or free.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table idempotency_records add column claim_token text not null default ''`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table idempotency_records drop column claim_token`.execute(db);
}
