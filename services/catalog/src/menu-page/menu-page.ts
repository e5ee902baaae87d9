import escapeHtml from 'escape-html';
import { derivePublishableKey } from '@partner/auth';
import { findRestaurantById, type ItemRow, listPublishedItems, listSections } from '@partner/db';
import { requireActiveSubscription } from '@partner/entitlements';
import type { CatalogDeps } from '../deps.js';

const price = (cents: number, currency: string) => {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).format(cents / 100);
  } catch {
    return `${(cents / 100).toFixed(2)} ${currency}`;
  }
};

/**
 * A restaurant's public menu page (HTML): its published dishes, each with an `item-<slug>` anchor that
 * concierge cards link to, the 3D viewer for dishes with a ready model, and the concierge widget. The
 * embeds use the restaurant's menu-page key, derived from a server secret, never stored in plaintext.
 * Every piece of restaurant text is HTML-escaped.
 */
export async function renderMenuPage(deps: CatalogDeps, restaurantId: string): Promise<string | null> {
  const restaurant = await findRestaurantById(deps.db, restaurantId);
  // Switched off by its owner: no page (and console has revoked its key).
  if (!restaurant?.menu_page_enabled) return null;
  try {
    requireActiveSubscription(restaurant);
  } catch {
    return null;
  }
  const [sections, items] = await Promise.all([listSections(deps.db, restaurant.id), listPublishedItems(deps.db, restaurant.id)]);
  const key = derivePublishableKey(deps.menuPageKeySecret, `menu-page:${restaurant.id}`, deps.menuPageKeyEnvironment).value;
  const dish = (item: ItemRow) => `
    <article class="dish" id="item-${escapeHtml(item.slug)}">
      <div class="text">
        <h3>${escapeHtml(item.name)} <span class="price">${escapeHtml(price(item.price_cents, restaurant.currency))}</span></h3>
        ${item.description ? `<p>${escapeHtml(item.description)}</p>` : ''}
        ${item.allergens.length ? `<p class="allergens">Contains: ${escapeHtml(item.allergens.join(', '))}</p>` : ''}
      </div>
      ${item.model_status === 'ready' ? `<service-viewer item-id="${escapeHtml(item.id)}" publishable-key="${key}"></service-viewer>` : ''}
    </article>`;
  const known = new Set(sections.map((section) => section.id));
  const groups = [
    ...sections.map((section) => ({ name: section.name, items: items.filter((item) => item.section_id === section.id) })),
    { name: 'More', items: items.filter((item) => !item.section_id || !known.has(item.section_id)) },
  ].filter((group) => group.items.length);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(restaurant.name)} · Menu</title>
<style>
body { margin: 0; font: 16px/1.5 system-ui, sans-serif; color: #1d1d1f; background: #fff; }
main { max-width: 760px; margin: 0 auto; padding: 24px 16px 120px; }
h1 { margin: 0 0 8px; } h2 { margin: 32px 0 8px; border-bottom: 1px solid #e5e5ea; }
.dish { display: flex; gap: 16px; align-items: flex-start; padding: 12px 0; border-bottom: 1px solid #f0f0f3; }
.dish .text { flex: 1; } .dish h3 { margin: 0; font-size: 17px; } .price { color: #6e6e73; font-weight: 400; margin-left: 8px; }
.dish p { margin: 4px 0 0; } .allergens { font-size: 13px; color: #6e6e73; }
service-viewer { width: 160px; flex: none; }
</style></head>
<body><main>
<h1>${escapeHtml(restaurant.name)}</h1>
${restaurant.house_notes ? `<p>${escapeHtml(restaurant.house_notes)}</p>` : ''}
${groups.map((group) => `<h2>${escapeHtml(group.name)}</h2>${group.items.map(dish).join('')}`).join('\n')}
</main>
<service-concierge restaurant-id="${escapeHtml(restaurant.id)}" publishable-key="${key}"></service-concierge>
<script src="${deps.publicBaseUrl}/embed/v1.js" async></script>
<script src="${deps.publicBaseUrl}/embed/concierge.v1.js" async></script>
</body></html>`;
}
