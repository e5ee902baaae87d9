import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { derivePublishableKey } from '@partner/auth';
import { menuInvalidations } from '@partner/http';
import { createApp } from '../app.js';
import { MenuPageCache } from './menu-page-cache.js';
import {
  expectError,
  expectGuarded,
  MENU_PAGE_KEY_SECRET,
  PUBLIC_BASE_URL,
  publicPrincipal,
  useAppHarness,
} from '../testing/app-harness.js';
import { usageCounters, deleteItem, seedItem, seedRestaurant, seedSection, storeModelFiles } from '../testing/factories.js';

const h = useAppHarness();
const pagePath = (restaurantId: string) => `/menu/${restaurantId}`;
const menuPageKey = (restaurantId: string, environment: 'live' | 'test') =>
  derivePublishableKey(MENU_PAGE_KEY_SECRET, `menu-page:${restaurantId}`, environment).value;

describe('GET /menu/{restaurantId}', () => {
  it('lets only the gateway in', async () => {
    const { restaurant } = await seedRestaurant(h.deps.db);
    await expectGuarded(h, 'get', pagePath(restaurant.id), publicPrincipal);
  });

  it('renders the published dishes by section, the viewer for ready models and the widget, counting nothing', async () => {
    const { restaurant } = await seedRestaurant(h.deps.db, { name: 'Osteria Prova', currency: 'EUR', house_notes: 'Closed on Mondays.' });
    const mains = await seedSection(h.deps.db, restaurant.id, 'Mains', 1);
    const modelled = await seedItem(h.deps.db, restaurant.id, {
      name: 'Lasagne',
      slug: 'lasagne',
      section_id: mains.id,
      price_cents: 1450,
      description: 'Slow-cooked ragù between sheets of fresh pasta.',
      allergens: ['gluten', 'milk'],
      dietary_tags: ['halal'],
      ...(await storeModelFiles(h.deps.storage)).columns,
    });
    const plain = await seedItem(h.deps.db, restaurant.id, { name: 'Espresso', slug: 'espresso', price_cents: 250 });
    await seedItem(h.deps.db, restaurant.id, { name: 'Unpublished idea', status: 'draft' });
    await deleteItem(h.deps.db, (await seedItem(h.deps.db, restaurant.id, { name: 'Gone dish' })).id);

    const res = await h.get(pagePath(restaurant.id), publicPrincipal).expect(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=60');
    const html = res.text;
    const key = menuPageKey(restaurant.id, 'live');
    expect(html).toContain('<h1>Osteria Prova</h1>');
    expect(html).toContain('<p class="notes">Closed on Mondays.</p>');
    expect(html).toContain('<nav class="sections" aria-label="Sections"><a href="#section-1">Mains</a><a href="#section-2">More</a></nav>');
    expect(html).toMatch(
      /<section class="menu-section" id="section-1">\s*<h2>Mains<\/h2>\s*<div class="dishes">\s*<article class="dish" id="item-lasagne">/,
    );
    expect(html).toMatch(
      /id="item-lasagne">[\s\S]*<h3>Lasagne<\/h3><span class="price">€14\.50<\/span>[\s\S]*<p class="description">Slow-cooked ragù/,
    );
    expect(html).toContain(
      '<ul class="badges"><li class="badge diet">halal</li><li class="badge allergens">Contains: gluten, milk</li></ul>',
    );
    expect(html).toMatch(
      /<section class="menu-section" id="section-2">\s*<h2>More<\/h2>\s*<div class="dishes">\s*<article class="dish" id="item-espresso">/,
    );
    // A dish with nothing more to say than its name and price leaves no empty paragraph or list behind.
    expect(html).toMatch(/id="item-espresso">[\s\S]*<span class="price">€2\.50<\/span><\/div>\s*<\/div>\s*<\/article>/);
    expect(html).toContain(`<service-viewer item-id="${modelled.id}" publishable-key="${key}"></service-viewer>`);
    expect(html).not.toContain(`item-id="${plain.id}"`);
    expect(html).toContain(`<service-concierge restaurant-id="${restaurant.id}" publishable-key="${key}"></service-concierge>`);
    expect(html).toContain(`<script src="${PUBLIC_BASE_URL}/embed/v1.js" async></script>`);
    expect(html).not.toContain('Unpublished idea');
    expect(html).not.toContain('Gone dish');
    expect(await usageCounters(h.deps.db, restaurant.id)).toEqual([]);
  });

  it('answers with a policy that runs the embeds from the gateway and nothing else, never framed', async () => {
    const { restaurant } = await seedRestaurant(h.deps.db);
    const res = await h.get(`/menu/${restaurant.id}`, publicPrincipal).expect(200);
    const policy = String(res.headers['content-security-policy']);
    expect(policy).toContain(`script-src 'self' ${new URL(PUBLIC_BASE_URL).origin} 'wasm-unsafe-eval'`);
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).toContain("object-src 'none'");
    expect(policy).toMatch(/img-src [^;]*data:/);
    expect(policy).not.toContain("'unsafe-eval'");
    expect(policy).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  });

  it('escapes every piece of restaurant text', async () => {
    const { restaurant } = await seedRestaurant(h.deps.db, { name: 'Bar <b>Loud</b>', house_notes: 'Cash & "cards"' });
    const section = await seedSection(h.deps.db, restaurant.id, '<i>Specials</i>', 1);
    await seedItem(h.deps.db, restaurant.id, {
      name: '<script>alert(1)</script>',
      slug: '"><img src=x onerror=alert(2)>',
      description: "Chef's <em>choice</em>",
      allergens: ['<nuts>'],
      section_id: section.id,
    });
    await seedItem(h.deps.db, restaurant.id, { name: 'Loose dish', dietary_tags: ['<vegan>'] });
    const html = (await h.get(pagePath(restaurant.id), publicPrincipal).expect(200)).text;
    expect(html).toContain('<title>Bar &lt;b&gt;Loud&lt;/b&gt; · Menu</title>');
    expect(html).toContain('<meta property="og:title" content="Bar &lt;b&gt;Loud&lt;/b&gt; · Menu">');
    expect(html).toContain('<meta name="description" content="Cash &amp; &quot;cards&quot;">');
    expect(html).toContain('<p class="notes">Cash &amp; &quot;cards&quot;</p>');
    expect(html).toContain('<a href="#section-1">&lt;i&gt;Specials&lt;/i&gt;</a>');
    expect(html).toContain('<h2>&lt;i&gt;Specials&lt;/i&gt;</h2>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('id="item-&quot;&gt;&lt;img src=x onerror=alert(2)&gt;"');
    expect(html).toContain('<p class="description">Chef&#39;s &lt;em&gt;choice&lt;/em&gt;</p>');
    expect(html).toContain('Contains: &lt;nuts&gt;');
    expect(html).toContain('<li class="badge diet">&lt;vegan&gt;</li>');
    for (const raw of ['<script>alert(1)</script>', '<img src=x', '<b>Loud', '<i>Specials', '<em>choice', '<nuts>', '<vegan>', '"cards"'])
      expect(html).not.toContain(raw);
  });

  it('stands on its own: a viewport for phones, an inline icon, and a word when there is nothing to show yet', async () => {
    const { restaurant } = await seedRestaurant(h.deps.db, { name: 'Empty Kitchen' });
    const html = (await h.get(pagePath(restaurant.id), publicPrincipal).expect(200)).text;
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    // The policy's img-src allows data: URLs, and nothing else need be fetched for the tab's icon.
    expect(html).toMatch(/<link rel="icon" href="data:image\/svg\+xml,%3Csvg%20[^"]+">/);
    expect(html).toContain('<meta name="description" content="The menu of Empty Kitchen.">');
    expect(html).toContain('<p class="empty">No dishes are on the menu yet.</p>');
    expect(html).not.toContain('<nav');
    expect(html).not.toContain('<h2>');
  });

  it('prints the key of the configured environment', async () => {
    const { restaurant } = await seedRestaurant(h.deps.db);
    const sandboxed = createApp({ ...h.deps, menuPageKeyEnvironment: 'test', menuPages: new MenuPageCache({ ttlMs: 60_000 }) });
    const html = (await request(sandboxed).get(pagePath(restaurant.id)).set(h.caller.headers(publicPrincipal)).expect(200)).text;
    expect(html).toContain(`publishable-key="${menuPageKey(restaurant.id, 'test')}"`);
    expect(menuPageKey(restaurant.id, 'test')).toMatch(/^svc_pk_test_/);
  });

  it('serves the rendered page from memory until console announces a change of its restaurant', async () => {
    const [one, other] = [(await seedRestaurant(h.deps.db, { name: 'Before' })).restaurant, (await seedRestaurant(h.deps.db)).restaurant];
    const page = async (id: string) => (await h.get(pagePath(id), publicPrincipal).expect(200)).text;
    expect(await page(one.id)).toContain('<h1>Before</h1>');
    expect(await page(other.id)).not.toContain('Other new dish');
    await h.deps.db.updateTable('restaurants').set({ name: 'After' }).where('id', '=', one.id).execute();
    await seedItem(h.deps.db, one.id, { name: 'New dish' });
    await seedItem(h.deps.db, other.id, { name: 'Other new dish' });
    expect(await page(one.id)).toContain('<h1>Before</h1>');

    // Messages arrive in order: once the other restaurant's page changed, this one's would have too.
    await menuInvalidations.publish(h.deps.redis, h.deps.redisPrefix, { restaurantId: other.id });
    await expect.poll(() => page(other.id)).toContain('Other new dish');
    expect(await page(one.id)).toContain('<h1>Before</h1>');
    await menuInvalidations.publish(h.deps.redis, h.deps.redisPrefix, { restaurantId: one.id });
    await expect.poll(() => page(one.id)).toContain('<h1>After</h1>');
    expect(await page(one.id)).toContain('New dish');
  });

  it('answers 404 for an unknown restaurant and for one whose subscription lapsed', async () => {
    const { restaurant } = await seedRestaurant(h.deps.db, { subscription_status: 'lapsed' });
    for (const id of ['rst_doesnotexist000000000000', restaurant.id]) {
      const res = await h.get(pagePath(id), publicPrincipal);
      expectError(res, 404, 'not_found');
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    }
  });
});
