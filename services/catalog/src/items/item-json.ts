import { type RawBuilder, sql } from 'kysely';

/** A timestamp as `toISOString` writes it: UTC, milliseconds (truncated, as node-postgres's dates are). */
const iso = (column: string) => sql`to_char(${sql.ref(column)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * An item row as a sync page shows it, as JSON text made by Postgres: `presentItem` (@partner/views),
 * or a tombstone for a deleted row. A page of 1,000 items then costs the catalog no row parsing,
 * presenting or serialising, which were most of its CPU per page (docs/benchmarks.md, issue 17); the
 * test beside it holds the two to the same output. The currency is the restaurant's, read once per
 * query.
 */
export function itemJson(restaurantId: string): RawBuilder<string> {
  return sql<string>`(case when deleted_at is not null
    then json_build_object('id', id, 'object', 'item', 'deleted', true, 'updatedAt', ${iso('updated_at')})
    else json_build_object(
      'id', id, 'restaurantId', restaurant_id, 'slug', slug, 'name', name, 'description', description,
      'priceCents', price_cents, 'price', price_cents::float8 / 100,
      'currency', (select currency from restaurants where id = ${restaurantId}),
      'status', status, 'sectionId', section_id, 'dietaryTags', dietary_tags, 'allergens', allergens,
      'model', json_build_object('status', model_status, 'updatedAt', ${iso('model_updated_at')}),
      'createdAt', ${iso('created_at')}, 'updatedAt', ${iso('updated_at')})
    end)::text`;
}
