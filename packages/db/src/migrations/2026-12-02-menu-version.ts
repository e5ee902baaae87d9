import { type Kysely, sql } from 'kysely';

// Frozen in time. The menu's version lives on its restaurant's row, moved by triggers in the writing
// transaction itself, so the ETag and every 304 read one row instead of every item (48 ms a 304 at 100k
// items before). Triggers rather than bumps in console's write paths: no writer can forget them
// (console, the model pipeline, bench seeding, a hand-written fix), and being per statement, with the
// changed rows in transition tables, a bulk insert bumps once.
//
// - menu_version: moves with every change of a published, live item (one entering, leaving or edited
//   in the menu) and of any section. Drafts, archived items and tombstones are not in the menu and move
//   nothing. The restaurant's own shown fields are part of the ETag itself (reads/menu-etag.ts).
// - menu_updated_at: the latest such change, the menu's `updatedAt` beside the restaurant's own.
// - menu_item_count: published live items, which the menu's size bound reads.
//
// The bump takes the restaurant row's lock until the write commits, so two transactions writing one
// restaurant's menu take turns from their first write to their commit (item writes are short). It is a
// no-key update: inserts that reference the restaurant (their foreign-key checks) do not wait for it.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table restaurants
      add column menu_version bigint not null default 1,
      add column menu_updated_at timestamptz(3),
      add column menu_item_count integer not null default 0
  `.execute(db);
  await sql`
    update restaurants r set
      menu_updated_at = (
        select max(latest) from (
          select max(updated_at) as latest from items where restaurant_id = r.id
          union all
          select max(updated_at) from sections where restaurant_id = r.id
        ) as changes
      ),
      menu_item_count = (select count(*) from items where restaurant_id = r.id and status = 'published' and deleted_at is null)
  `.execute(db);

  // The menu's order within a section (and among the unsectioned), read in pages while it is built.
  await sql`
    create index items_menu_order on items (restaurant_id, section_id, name, id)
    where status = 'published' and deleted_at is null
  `.execute(db);

  // What the statement changed, per row: (restaurant_id, stamp, delta in published items); the stamp of a
  // deletion is the clock's. Run with EXECUTE inside the trigger function, where the statement's
  // transition tables are visible (an INSERT trigger has no old rows, a DELETE trigger no new ones).
  await sql`
    create function bump_menu_version() returns trigger language plpgsql as $fn$
    declare
      changed text := case tg_table_name || ' ' || tg_op
        when 'sections INSERT' then 'select restaurant_id, updated_at as stamp, 0 as delta from new_rows'
        when 'sections UPDATE' then 'select restaurant_id, updated_at as stamp, 0 as delta from new_rows
                                     union all select restaurant_id, null, 0 from old_rows'
        when 'sections DELETE' then $q$select restaurant_id, date_trunc('milliseconds', clock_timestamp()) as stamp, 0 as delta
                                       from old_rows$q$
        when 'items INSERT' then $q$select restaurant_id, updated_at as stamp, 1 as delta from new_rows
                                    where status = 'published' and deleted_at is null$q$
        when 'items UPDATE' then $q$select restaurant_id, updated_at as stamp, 1 as delta from new_rows
                                    where status = 'published' and deleted_at is null
                                    union all
                                    select o.restaurant_id, n.updated_at, -1 from old_rows o join new_rows n using (id)
                                    where o.status = 'published' and o.deleted_at is null$q$
        when 'items DELETE' then $q$select restaurant_id, date_trunc('milliseconds', clock_timestamp()) as stamp, -1 as delta
                                    from old_rows where status = 'published' and deleted_at is null$q$
      end;
    begin
      execute format(
        'update restaurants r set
           menu_version = r.menu_version + 1,
           menu_updated_at = greatest(r.menu_updated_at, c.latest),
           menu_item_count = r.menu_item_count + c.delta
         from (select restaurant_id, max(stamp) as latest, sum(delta) as delta from (%s) as changed group by restaurant_id) as c
         where r.id = c.restaurant_id', changed);
      return null;
    end $fn$
  `.execute(db);
  for (const table of ['items', 'sections']) {
    await sql`
      create trigger ${sql.raw(`${table}_menu_version_insert`)} after insert on ${sql.table(table)}
      referencing new table as new_rows for each statement execute function bump_menu_version()
    `.execute(db);
    await sql`
      create trigger ${sql.raw(`${table}_menu_version_update`)} after update on ${sql.table(table)}
      referencing old table as old_rows new table as new_rows for each statement execute function bump_menu_version()
    `.execute(db);
    await sql`
      create trigger ${sql.raw(`${table}_menu_version_delete`)} after delete on ${sql.table(table)}
      referencing old table as old_rows for each statement execute function bump_menu_version()
    `.execute(db);
  }
}
