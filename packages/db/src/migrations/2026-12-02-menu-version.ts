import { type Kysely, sql } from 'kysely';

// Frozen in time. The menu's version lives on its restaurant's row, moved by triggers in the writing
// transaction itself, so the ETag and every 304 read one row instead of every item (48 ms a 304 at 100k
// items before). Triggers rather than bumps in console's write paths: no writer can forget them
// (console, the model pipeline, bench seeding, a hand-written fix), and being per statement, with the
// changed rows in transition tables, a bulk insert bumps once.
//
// - menu_version: moves once per committed transaction that changes a published, live item (entering,
//   leaving or edited in the menu) or any section. Drafts, archived items and tombstones are not in the
//   menu and move nothing. The restaurant's own shown fields are part of the ETag itself (menu-etag.ts).
// - menu_updated_at: the latest such change, the menu's `updatedAt` beside the restaurant's own.
// - menu_item_count: published live items, which the menu's size bound reads.
//
// A statement notes its change in menu_pending, one row per (transaction, restaurant) that no other
// transaction writes, and a deferred trigger folds that row into the restaurant's at commit. So the
// restaurant's row is locked only while its writer commits: two writers of one menu never wait on each
// other's open transactions, and a write that commits after a later-stamped one still moves the version
// (a bump made early would too, but would make the later writer wait for the slow one to commit).
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

  // The menu's order within a section, read in pages while it is built. '' stands for no section: the
  // planner takes its order from the index only below an equality (with 'is null' it sorted every page).
  await sql`
    create index items_menu_order on items (restaurant_id, (coalesce(section_id, '')), name, id)
    where status = 'published' and deleted_at is null
  `.execute(db);

  await sql`
    create table menu_pending (
      txid xid8 not null default pg_current_xact_id(),
      restaurant_id text not null,
      latest timestamptz(3),
      item_delta integer not null,
      primary key (txid, restaurant_id)
    )
  `.execute(db);

  // What the statement changed, per row: (restaurant_id, stamp, delta in published items); the stamp of a
  // deletion is the clock's. Run with EXECUTE inside the trigger function, where the statement's
  // transition tables are visible (an INSERT trigger has no old rows, a DELETE trigger no new ones).
  await sql`
    create function note_menu_change() returns trigger language plpgsql as $fn$
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
        'insert into menu_pending (restaurant_id, latest, item_delta)
         select restaurant_id, max(stamp), sum(delta) from (%s) as changed group by restaurant_id
         on conflict (txid, restaurant_id) do update set
           latest = greatest(menu_pending.latest, excluded.latest),
           item_delta = menu_pending.item_delta + excluded.item_delta', changed);
      return null;
    end $fn$
  `.execute(db);
  await sql`
    create function apply_menu_change() returns trigger language plpgsql as $fn$
    begin
      with pending as (
        delete from menu_pending where txid = new.txid and restaurant_id = new.restaurant_id returning latest, item_delta
      )
      update restaurants r set
        menu_version = r.menu_version + 1,
        menu_updated_at = greatest(r.menu_updated_at, pending.latest),
        menu_item_count = r.menu_item_count + pending.item_delta
      from pending
      where r.id = new.restaurant_id;
      return null;
    end $fn$
  `.execute(db);
  // Once per (transaction, restaurant): later statements of the transaction update the pending row.
  await sql`
    create constraint trigger menu_pending_at_commit after insert on menu_pending
    deferrable initially deferred for each row execute function apply_menu_change()
  `.execute(db);
  for (const table of ['items', 'sections']) {
    await sql`
      create trigger ${sql.raw(`${table}_menu_change_insert`)} after insert on ${sql.table(table)}
      referencing new table as new_rows for each statement execute function note_menu_change()
    `.execute(db);
    await sql`
      create trigger ${sql.raw(`${table}_menu_change_update`)} after update on ${sql.table(table)}
      referencing old table as old_rows new table as new_rows for each statement execute function note_menu_change()
    `.execute(db);
    await sql`
      create trigger ${sql.raw(`${table}_menu_change_delete`)} after delete on ${sql.table(table)}
      referencing old table as old_rows for each statement execute function note_menu_change()
    `.execute(db);
  }
}
