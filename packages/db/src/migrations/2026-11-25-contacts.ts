import type { Kysely } from 'kysely';

// Frozen in time. Where owners are told about things that need them (an endpoint disabled, say).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('restaurants').addColumn('contact_email', 'text').execute();
  await db.schema.alterTable('integrator_orgs').addColumn('contact_email', 'text').execute();
}
