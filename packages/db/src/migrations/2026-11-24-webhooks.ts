import { sql, type Kysely } from 'kysely';

// Frozen in time. Webhook endpoints, one delivery row per attempt, and the outbox's fan-out mark.
export async function up(db: Kysely<any>): Promise<void> {
  const ts = sql`timestamptz(3)`;

  await db.schema
    .createTable('webhook_endpoints')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner_kind', 'text', (c) => c.notNull().check(sql`owner_kind in ('restaurant', 'integrator')`))
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('enabled_events', sql`text[]`, (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('active')
        .check(sql`status in ('active', 'disabled')`),
    )
    .addColumn('disabled_reason', 'text')
    .addColumn('secret', 'text', (c) => c.notNull())
    // During a rotation's overlap both secrets sign (one v1= each).
    .addColumn('previous_secret', 'text')
    .addColumn('previous_secret_expires_at', ts)
    .addColumn('created_at', ts, (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', ts, (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('deleted_at', ts)
    .execute();
  await sql`create index webhook_endpoints_owner on webhook_endpoints (owner_kind, owner_id) where deleted_at is null`.execute(db);

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('endpoint_id', 'text', (c) => c.notNull().references('webhook_endpoints.id').onDelete('cascade'))
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('pending', 'held', 'succeeded', 'failed', 'expired', 'skipped')`))
    .addColumn('response_status', 'integer')
    .addColumn('duration_ms', 'integer')
    .addColumn('error', 'text')
    .addColumn('created_at', ts, (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('next_attempt_at', ts)
    // A dispatcher's lease on a pending attempt; a crashed dispatcher's lease runs out and another takes it.
    .addColumn('claimed_until', ts)
    .execute();
  await sql`create index webhook_deliveries_due on webhook_deliveries (next_attempt_at) where status = 'pending'`.execute(db);
  await sql`create index webhook_deliveries_endpoint on webhook_deliveries (endpoint_id, created_at desc, id desc)`.execute(db);
  await sql`create index webhook_deliveries_event on webhook_deliveries (event_id)`.execute(db);

  // What the owner is told (dashboard), e.g. that an endpoint was disabled after failing every retry.
  await db.schema
    .createTable('notifications')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('owner_kind', 'text', (c) => c.notNull())
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  // Item changes not yet announced by a menu.updated: one row per restaurant with a burst in progress.
  await db.schema
    .createTable('menu_update_bursts')
    .addColumn('restaurant_id', 'text', (c) => c.primaryKey().references('restaurants.id').onDelete('cascade'))
    .addColumn('first_change_at', ts, (c) => c.notNull())
    .addColumn('last_change_at', ts, (c) => c.notNull())
    .addColumn('changed_item_ids', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    .addColumn('deleted_item_ids', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    .execute();

  await db.schema.alterTable('outbox_events').addColumn('fanned_out_at', ts).execute();
  await sql`create index outbox_events_pending on outbox_events (seq) where fanned_out_at is null`.execute(db);
}
