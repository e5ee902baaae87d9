import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, saveScreenshot } from './browser.js';
import { expectError } from './expect-error.js';
import { sampleModelFiles, startStack, type Stack } from './stack.js';

// A restaurant's public menu page, rendered by the catalog and served by the gateway, with both
// embeds on it, in a real browser.
let stack: Stack;
let browser: Browser;
beforeAll(async () => {
  stack = await startStack({ realPublicUrl: true, env: { MENU_PAGE_KEY_ENVIRONMENT: 'test' } });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

async function menuRestaurant() {
  const restaurant = await stack.console.createRestaurant({ name: 'Chez <b>Test</b>', slug: `chez-${Date.now()}`, currency: 'EUR' });
  await stack.console.updateRestaurant(restaurant.id, { conciergeAddon: true, conciergeEnabled: true });
  const section = await stack.console.createSection(restaurant.id, { name: 'Desserts' });
  const tiramisu = await stack.console.createItem(restaurant.id, {
    name: 'Tiramisu',
    priceCents: 900,
    sectionId: section.id,
    allergens: ['milk'],
  });
  await stack.console.uploadModel(tiramisu.id, await sampleModelFiles());
  const soup = await stack.console.createItem(restaurant.id, { name: '<script>window.__pwned=1</script> Soup', priceCents: 700 });
  return { restaurant, tiramisu, soup };
}

describe('GET /menu/{restaurantId}', () => {
  it('renders the published dishes with anchors, escaped text, a viewer for ready models and the widget', async () => {
    const { restaurant, tiramisu, soup } = await menuRestaurant();
    const res = await request(stack.gatewayUrl).get(`/menu/${restaurant.id}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toContain(`id="item-${tiramisu.slug}"`);
    expect(res.text).toContain(`id="item-${soup.slug}"`);
    expect(res.text).toContain(`<service-viewer item-id="${tiramisu.id}"`);
    expect(res.text).not.toContain(`<service-viewer item-id="${soup.id}"`);
    expect(res.text).toContain('&lt;script&gt;window.__pwned=1&lt;/script&gt; Soup');
    expect(res.text).toContain('Chez &lt;b&gt;Test&lt;/b&gt;');
    expect(res.text).toContain(`<service-concierge restaurant-id="${restaurant.id}" publishable-key="svc_pk_test_`);
  });

  it('is 404 for an unknown or lapsed restaurant', async () => {
    expectError(await request(stack.gatewayUrl).get('/menu/rst_nope'), 404, 'not_found');
    const { restaurant } = await menuRestaurant();
    await stack.console.updateRestaurant(restaurant.id, { subscriptionStatus: 'lapsed' });
    expectError(await request(stack.gatewayUrl).get(`/menu/${restaurant.id}`), 404, 'not_found');
  });

  it('can be switched off by its owner: the page is 404 and the key printed in it stops working, until it is on again', async () => {
    const { restaurant } = await menuRestaurant();
    const page = await request(stack.gatewayUrl).get(`/menu/${restaurant.id}`);
    const key = /publishable-key="(svc_pk_[a-z]+_[A-Za-z0-9]+)"/.exec(page.text)![1]!;
    const bootstrap = () =>
      request(stack.gatewayUrl)
        .get(`/v1/partner/embed/restaurants/${restaurant.id}/concierge`)
        .set({ Authorization: `Bearer ${key}`, Origin: new URL(stack.gatewayUrl).origin });
    expect((await bootstrap()).status).toBe(200);

    expect((await stack.console.updateRestaurant(restaurant.id, { menuPageEnabled: false })).menuPageEnabled).toBe(false);
    expectError(await request(stack.gatewayUrl).get(`/menu/${restaurant.id}`), 404, 'not_found');
    await expect.poll(async () => (await bootstrap()).status, { timeout: 1000, interval: 20 }).toBe(401);

    await stack.console.updateRestaurant(restaurant.id, { menuPageEnabled: true });
    expect((await request(stack.gatewayUrl).get(`/menu/${restaurant.id}`)).status).toBe(200);
    await expect.poll(async () => (await bootstrap()).status, { timeout: 1000, interval: 20 }).toBe(200);
  });

  it('works in a browser: the viewer shows the dish and the widget answers with cards that link to the page', async () => {
    const { restaurant, tiramisu } = await menuRestaurant();
    const tab = await browser.newPage();
    // The page's Content-Security-Policy must let both embeds (and the 3D runtime) do all they do.
    const blocked: string[] = [];
    tab.on('console', (message) => {
      if (message.text().includes('Content Security Policy')) blocked.push(message.text());
    });
    await tab.goto(`${stack.gatewayUrl}/menu/${restaurant.id}`);
    await expect.poll(() => tab.locator('service-viewer img.poster').count(), { timeout: 5000 }).toBe(1);
    await tab.locator('service-viewer button').first().click();
    await expect.poll(() => tab.locator('service-viewer model-viewer canvas').count(), { timeout: 15_000 }).toBeGreaterThan(0);
    await tab.locator('service-concierge .launcher').click();
    await tab.locator('service-concierge input').fill('tiramisu');
    await tab.locator('service-concierge form button').click();
    await expect.poll(() => tab.locator('service-concierge .card').count(), { timeout: 5000 }).toBeGreaterThan(0);
    const href = await tab.locator('service-concierge .card').first().getAttribute('href');
    expect(href).toBe(`${stack.gatewayUrl}/menu/${restaurant.id}#item-${tiramisu.slug}`);
    expect(await tab.evaluate(() => (globalThis as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(blocked).toEqual([]);
    await saveScreenshot(tab, 'menu-page.png', { fullPage: true });
    await tab.close();
  });
});
