import type { TConsoleRestaurant } from '@partner/contracts/console';
import type { RestaurantRow } from '@partner/db';
import { presentRestaurant } from '@partner/views';

// A restaurant as the console API shows it: the Partner API's shape and the settings only the owner sees.

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
    menuPageEnabled: row.menu_page_enabled,
  };
}
