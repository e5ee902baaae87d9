import { type RawBuilder, sql } from 'kysely';

/** A timestamp as `toISOString` writes it: UTC, milliseconds (truncated, as node-postgres's dates are). */
const iso = (column: string) => sql`to_char(${sql.ref(column)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** A value as JSON text; `null` for SQL's null, which would otherwise make the whole concatenation null. */
const json = (column: string) => sql`coalesce(to_json(${sql.ref(column)})::text, 'null')`;

/**
 * An item row as a sync page and the menu show it, as JSON text made by Postgres: byte for byte what
 * `JSON.stringify(presentItem(row))` (@partner/views) writes, or a tombstone for a deleted row. A page
 * of 1,000 items then costs the catalog no row parsing, presenting or serialising, which were most of
 * its CPU per page (docs/benchmarks.md, issue 17); the test beside it holds the two to the same bytes.
 * Concatenated rather than `json_build_object`, which writes `"key" : value` and is no cheaper. The
 * currency is the restaurant's, read once per query.
 */
export function itemJson(restaurantId: string): RawBuilder<string> {
  return sql<string>`(case when deleted_at is not null
    then '{"id":' || to_json(id) || ',"object":"item","deleted":true,"updatedAt":"' || ${iso('updated_at')} || '"}'
    else '{"id":' || to_json(id) || ',"restaurantId":' || to_json(restaurant_id) || ',"slug":' || to_json(slug)
      || ',"name":' || to_json(name) || ',"description":' || ${json('description')}
      || ',"priceCents":' || price_cents || ',"price":' || to_json(price_cents::float8 / 100)
      || ',"currency":' || to_json((select currency from restaurants where id = ${restaurantId}))
      || ',"status":' || to_json(status) || ',"sectionId":' || ${json('section_id')}
      || ',"dietaryTags":' || to_json(dietary_tags) || ',"allergens":' || to_json(allergens)
      || ',"model":{"status":' || to_json(model_status) || ',"updatedAt":' || coalesce('"' || ${iso('model_updated_at')} || '"', 'null')
      || '},"createdAt":"' || ${iso('created_at')} || '","updatedAt":"' || ${iso('updated_at')} || '"}'
    end)`;
}
