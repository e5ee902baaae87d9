import { type Kysely, sql } from 'kysely';

// Frozen in time. Whether an item event touched the published menu (its dish was published before or
// after the change): drafts stay out of integrators' webhooks and of menu.updated, while a dish leaving
// the menu is still announced. Null for other events and for rows written before this column.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table outbox_events add column touches_published_menu boolean`.execute(db);
}
