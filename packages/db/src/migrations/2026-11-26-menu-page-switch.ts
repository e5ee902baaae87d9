import type { Kysely } from 'kysely';

// Frozen in time. An owner may switch the public menu page off; its publishable key lives only while it is on.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('restaurants')
    .addColumn('menu_page_enabled', 'boolean', (c) => c.notNull().defaultTo(true))
    .execute();
}
