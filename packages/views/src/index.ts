import type { TItem, TRestaurant } from '@partner/contracts';
import type { ItemRow, RestaurantRow } from '@partner/db';

// The restaurant and menu tables (console writes them) as the APIs show them: built once from their
// rows, typed against the contract schemas, for every service that answers with them (catalog for
// the Partner API, console for the dashboard).

export const iso = (date: Date): string => date.toISOString();

const isoOrNull = (date: Date | null): string | null => (date ? date.toISOString() : null);

export function presentRestaurant(row: RestaurantRow): TRestaurant {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    currency: row.currency,
    publicMenuUrl: row.public_menu_url,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

export function presentItem(row: ItemRow, currency: string): TItem {
  return {
    id: row.id,
    restaurantId: row.restaurant_id,
    slug: row.slug,
    name: row.name,
    description: row.description,
    priceCents: row.price_cents,
    price: row.price_cents / 100,
    currency,
    status: row.status,
    sectionId: row.section_id,
    dietaryTags: row.dietary_tags,
    allergens: row.allergens,
    model: { status: row.model_status, updatedAt: isoOrNull(row.model_updated_at) },
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}
