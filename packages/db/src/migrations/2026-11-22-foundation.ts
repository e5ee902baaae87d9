import { sql, type Kysely } from 'kysely';

// Frozen in time: later changes get a new migration, never an edit here.
// Timestamps are timestamptz(3): the precision JSON carries, so a value read and sent back never moves.
export async function up(db: Kysely<any>): Promise<void> {
  const ts = sql`timestamptz(3)`;
  await db.schema
    .createTable('restaurants')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('public_menu_url', 'text')
    .addColumn('house_notes', 'text')
    .addColumn('subscription_status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('active')
        .check(sql`subscription_status in ('active', 'lapsed')`),
    )
    .addColumn('partner_api_addon', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('concierge_addon', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('concierge_enabled', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('suspended', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('monthly_quota', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(10_000)
        .check(sql`monthly_quota >= 0`),
    )
    .addColumn('overage_budget', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`overage_budget >= 0`),
    )
    .addColumn('concierge_allowance', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(1_000)
        .check(sql`concierge_allowance >= 0`),
    )
    .addColumn('concierge_display_name', 'text')
    .addColumn('concierge_welcome_message', 'text')
    .addColumn('billing_anchor', ts, (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('created_at', ts, (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', ts, (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('sections')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('restaurant_id', 'text', (c) => c.notNull().references('restaurants.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', ts, (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', ts, (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('sections_restaurant_idx').on('sections').columns(['restaurant_id', 'position']).execute();

  await db.schema
    .createTable('items')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('restaurant_id', 'text', (c) => c.notNull().references('restaurants.id').onDelete('cascade'))
    .addColumn('section_id', 'text', (c) => c.references('sections.id').onDelete('set null'))
    .addColumn('slug', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('price_cents', 'integer', (c) => c.notNull().check(sql`price_cents >= 0`))
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('draft', 'published', 'archived')`))
    .addColumn('dietary_tags', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    .addColumn('allergens', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    .addColumn('model_status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('none')
        .check(sql`model_status in ('none', 'processing', 'ready', 'failed')`),
    )
    .addColumn('model_updated_at', ts)
    .addColumn('created_at', ts, (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', ts, (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('deleted_at', ts)
    .execute();
  await sql`create unique index items_restaurant_slug_live on items (restaurant_id, slug) where deleted_at is null`.execute(db);
  await db.schema.createIndex('items_sync_idx').on('items').columns(['restaurant_id', 'updated_at', 'id']).execute();

  await db.schema
    .createTable('integrator_orgs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('suspended', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', ts, (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', ts, (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('prefix', 'text', (c) => c.notNull())
    .addColumn('last4', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull().check(sql`type in ('secret', 'publishable')`))
    .addColumn('environment', 'text', (c) => c.notNull().check(sql`environment in ('live', 'test')`))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('scopes', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    .addColumn('rate_limit_per_min', 'integer', (c) => c.notNull().check(sql`rate_limit_per_min > 0`))
    .addColumn('allowed_origins', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    .addColumn('restaurant_id', 'text', (c) => c.references('restaurants.id').onDelete('cascade'))
    .addColumn('integrator_org_id', 'text', (c) => c.references('integrator_orgs.id').onDelete('cascade'))
    .addColumn('expires_at', ts)
    .addColumn('revoked_at', ts)
    .addColumn('created_at', ts, (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('api_keys_one_owner', sql`(restaurant_id is null) <> (integrator_org_id is null)`)
    .execute();

  await db.schema
    .createTable('connect_links')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('integrator_org_id', 'text', (c) => c.notNull().references('integrator_orgs.id').onDelete('cascade'))
    .addColumn('scopes', sql`text[]`, (c) => c.notNull())
    .addColumn('expires_at', ts, (c) => c.notNull())
    .addColumn('used_at', ts)
    .addColumn('created_at', ts, (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('grants')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('restaurant_id', 'text', (c) => c.notNull().references('restaurants.id').onDelete('cascade'))
    .addColumn('integrator_org_id', 'text', (c) => c.notNull().references('integrator_orgs.id').onDelete('cascade'))
    .addColumn('scopes', sql`text[]`, (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('active', 'revoked')`))
    .addColumn('created_at', ts, (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('revoked_at', ts)
    .execute();
  await sql`create unique index grants_one_active on grants (restaurant_id, integrator_org_id) where status = 'active'`.execute(db);
  await sql`create index grants_org_active on grants (integrator_org_id, restaurant_id) where status = 'active'`.execute(db);

  await db.schema
    .createTable('platform_settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'jsonb', (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}
