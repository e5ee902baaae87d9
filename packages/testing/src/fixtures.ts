import { randomBase62 } from '@partner/auth';
import {
  writeTimestamp,
  type ApiKeyRow,
  type Executor,
  type ItemRow,
  type NewApiKey,
  type NewItem,
  type NewRestaurant,
  type RestaurantRow,
  type RestaurantUpdate,
} from '@partner/db';

// Rows a test or benchmark arranges directly, for services that read tables another service owns
// (a gateway test needs keys; console, their owner, is not running). Flows that must exercise the
// owner's rules go through its API instead (e2e).

/** A restaurant row: an active subscription with the Partner API add-on, unless `row` says otherwise. */
export async function insertRestaurant(db: Executor, row: Partial<NewRestaurant> = {}): Promise<RestaurantRow> {
  const id = row.id ?? `rst_${randomBase62(24)}`;
  return db
    .insertInto('restaurants')
    .values({
      name: 'Test Kitchen',
      slug: id.toLowerCase(),
      currency: 'EUR',
      public_menu_url: null,
      house_notes: null,
      concierge_display_name: null,
      concierge_welcome_message: null,
      ...row,
      id,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function updateRestaurant(db: Executor, id: string, changes: RestaurantUpdate): Promise<RestaurantRow | undefined> {
  return db.updateTable('restaurants').set(changes).where('id', '=', id).returningAll().executeTakeFirst();
}

export async function insertApiKey(db: Executor, row: NewApiKey): Promise<ApiKeyRow> {
  return db.insertInto('api_keys').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function insertItem(db: Executor, row: Omit<NewItem, 'created_at' | 'updated_at'>): Promise<ItemRow> {
  return db
    .insertInto('items')
    .values({ ...row, created_at: writeTimestamp(), updated_at: writeTimestamp() })
    .returningAll()
    .executeTakeFirstOrThrow();
}
