import type { TConsoleRestaurant, TItem, TRestaurant, TScope } from '@partner/contracts';
import type { ItemRow, RestaurantRow } from './schema.js';

// Rows become wire shapes here, once, so every service answers with the same fields.

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

export const DEFAULT_WELCOME_MESSAGE = 'Hi! Ask me anything about our menu.';

export function presentConsoleRestaurant(row: RestaurantRow): TConsoleRestaurant {
  return {
    ...presentRestaurant(row),
    houseNotes: row.house_notes,
    subscriptionStatus: row.subscription_status,
    partnerApiAddon: row.partner_api_addon,
    conciergeAddon: row.concierge_addon,
    conciergeEnabled: row.concierge_enabled,
    suspended: row.suspended,
    monthlyQuota: row.monthly_quota,
    overageBudget: row.overage_budget,
    conciergeAllowance: row.concierge_allowance,
    concierge: {
      displayName: row.concierge_display_name ?? row.name,
      welcomeMessage: row.concierge_welcome_message ?? DEFAULT_WELCOME_MESSAGE,
    },
    contactEmail: row.contact_email,
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

export const asScopes = (values: string[]): TScope[] => values as TScope[];
