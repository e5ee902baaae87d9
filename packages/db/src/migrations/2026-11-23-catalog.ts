import { sql, type Kysely } from 'kysely';

// Frozen in time. Adds what the catalog needs: model files on items, the transactional outbox,
// idempotency records and usage counters.
export async function up(db: Kysely<any>): Promise<void> {
  const ts = sql`timestamptz(3)`;

  await db.schema
    .alterTable('items')
    .addColumn('model_glb_key', 'text')
    .addColumn('model_usdz_key', 'text')
    .addColumn('model_thumbnail_key', 'text')
    .addColumn('model_failure_reason', 'text')
    .execute();
  // Tombstone purge and retention checks scan deletions by age.
  await sql`create index items_deleted_at_idx on items (deleted_at) where deleted_at is not null`.execute(db);

  // Every item and model change writes its event here in the change's own transaction (DESIGN.md 5).
  await db.schema
    .createTable('outbox_events')
    .addColumn('seq', 'bigserial', (c) => c.primaryKey())
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('restaurant_id', 'text', (c) => c.notNull())
    .addColumn('integrator_org_id', 'text')
    .addColumn('data', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('idempotency_records')
    .addColumn('api_key_id', 'text', (c) => c.notNull())
    .addColumn('idempotency_key', 'text', (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('body_hash', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('in_progress', 'completed')`))
    .addColumn('response_status', 'integer')
    .addColumn('response_body', 'text')
    .addColumn('response_content_type', 'text')
    .addColumn('created_at', ts, (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('locked_at', ts, (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('idempotency_records_pk', ['api_key_id', 'idempotency_key'])
    .execute();
  await db.schema.createIndex('idempotency_records_created_idx').on('idempotency_records').column('created_at').execute();

  await db.schema
    .createTable('usage_counters')
    .addColumn('restaurant_id', 'text', (c) => c.notNull().references('restaurants.id').onDelete('cascade'))
    .addColumn('metric', 'text', (c) => c.notNull().check(sql`metric in ('api_requests', 'concierge_messages')`))
    .addColumn('period_start', ts, (c) => c.notNull())
    .addColumn('used', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('usage_counters_pk', ['restaurant_id', 'metric', 'period_start'])
    .execute();
}
