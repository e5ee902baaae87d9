import escapeHtml from 'escape-html';
import { derivePublishableKey } from '@partner/auth';
import { findRestaurantById, type ItemRow, listPublishedItems, listSections, type RestaurantRow, type SectionRow } from '@partner/db';
import { requireActiveSubscription } from '@partner/entitlements';
import type { CatalogDeps } from '../deps.js';
import { FAVICON_URL, MENU_PAGE_CSS } from './menu-page.theme.js';

interface DishGroup {
  name: string;
  items: ItemRow[];
}

const price = (cents: number, currency: string) => {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).format(cents / 100);
  } catch {
    return `${(cents / 100).toFixed(2)} ${currency}`;
  }
};

/** Dietary tags, then the declared allergens as one badge that reads as a sentence ("Contains: gluten, milk"). */
function badges(item: ItemRow): string {
  const list = [
    ...item.dietary_tags.map((tag) => `<li class="badge diet">${escapeHtml(tag)}</li>`),
    ...(item.allergens.length ? [`<li class="badge allergens">Contains: ${escapeHtml(item.allergens.join(', '))}</li>`] : []),
  ];
  return list.length ? `<ul class="badges">${list.join('')}</ul>` : '';
}

function dish(item: ItemRow, currency: string, key: string): string {
  return `
<article class="dish" id="item-${escapeHtml(item.slug)}">
  ${item.model_status === 'ready' ? `<service-viewer item-id="${escapeHtml(item.id)}" publishable-key="${key}"></service-viewer>` : ''}
  <div class="dish-body">
    <div class="dish-head"><h3>${escapeHtml(item.name)}</h3><span class="price">${escapeHtml(price(item.price_cents, currency))}</span></div>
    ${item.description ? `<p class="description">${escapeHtml(item.description)}</p>` : ''}
    ${badges(item)}
  </div>
</article>`;
}

/** The restaurant's sections in their order, then a "More" for dishes in none; empty ones are left out. */
function groupBySection(sections: SectionRow[], items: ItemRow[]): DishGroup[] {
  const known = new Set(sections.map((section) => section.id));
  return [
    ...sections.map((section) => ({ name: section.name, items: items.filter((item) => item.section_id === section.id) })),
    { name: 'More', items: items.filter((item) => !item.section_id || !known.has(item.section_id)) },
  ].filter((group) => group.items.length);
}

function page(restaurant: RestaurantRow, groups: DishGroup[], key: string, publicBaseUrl: string): string {
  const name = escapeHtml(restaurant.name);
  const summary = escapeHtml(restaurant.house_notes ?? `The menu of ${restaurant.name}.`);
  const sectionId = (index: number) => `section-${index + 1}`;
  const sectionLinks = groups.map((group, index) => `<a href="#${sectionId(index)}">${escapeHtml(group.name)}</a>`).join('');
  const sections = groups.map(
    (group, index) => `
<section class="menu-section" id="${sectionId(index)}">
<h2>${escapeHtml(group.name)}</h2>
<div class="dishes">${group.items.map((item) => dish(item, restaurant.currency, key)).join('')}</div>
</section>`,
  );
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${name} · Menu</title>
<meta name="description" content="${summary}">
<meta property="og:type" content="website"><meta property="og:title" content="${name} · Menu"><meta property="og:description" content="${summary}">
<meta name="theme-color" content="#1f1a14">
<link rel="icon" href="${FAVICON_URL}">
<style>${MENU_PAGE_CSS}</style></head>
<body>
<header class="masthead"><div class="wrap">
<p class="eyebrow">Menu</p>
<h1>${name}</h1>
${restaurant.house_notes ? `<p class="notes">${escapeHtml(restaurant.house_notes)}</p>` : ''}
${groups.length > 1 ? `<nav class="sections" aria-label="Sections">${sectionLinks}</nav>` : ''}
</div></header>
<main class="wrap">
${sections.length ? sections.join('\n') : '<p class="empty">No dishes are on the menu yet.</p>'}
</main>
<footer class="wrap"><p class="colophon">Allergens are as declared by the kitchen. Please tell your server about any allergy before you order.</p></footer>
<service-concierge restaurant-id="${escapeHtml(restaurant.id)}" publishable-key="${key}"></service-concierge>
<script src="${publicBaseUrl}/embed/v1.js" async></script>
<script src="${publicBaseUrl}/embed/concierge.v1.js" async></script>
</body></html>`;
}

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
  return page(restaurant, groupBySection(sections, items), key, deps.publicBaseUrl);
}
