import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, openMenuPage, saveScreenshot } from './browser.js';
import { fitsWidth, seriousViolations } from './dashboard.js';
import { expectError } from './expect-error.js';
import { loaded, watchProblems } from './page-watch.js';
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

/** A small menu as a guest would find it: sections, descriptions (one dish has none), badges, two dishes in 3D, dishes in no section. */
async function menuRestaurant() {
  const restaurant = await stack.console.createRestaurant({
    name: 'Chez <b>Test</b>',
    slug: `chez-${Date.now()}-${Math.random().toString(36).slice(2, 6)}`,
    currency: 'EUR',
    houseNotes: 'Kitchen closes at 22:00. Most dishes can be made without gluten; ask your server.',
  });
  await stack.console.updateRestaurant(restaurant.id, { conciergeAddon: true, conciergeEnabled: true });
  const starters = await stack.console.createSection(restaurant.id, { name: 'Starters', position: 0 });
  const desserts = await stack.console.createSection(restaurant.id, { name: 'Desserts', position: 1 });
  const burrata = await stack.console.createItem(restaurant.id, {
    name: 'Burrata with heirloom tomatoes',
    description: 'Creamy burrata from Puglia, heirloom cherry tomatoes, basil and cold-pressed olive oil.',
    priceCents: 1400,
    sectionId: starters.id,
    allergens: ['milk'],
    dietaryTags: ['vegetarian', 'gluten-free'],
  });
  await stack.console.createItem(restaurant.id, {
    name: 'Crispy calamari',
    description: 'Squid rings fried in a light batter, with lemon and garlic aioli.',
    priceCents: 1250,
    sectionId: starters.id,
    allergens: ['molluscs', 'gluten', 'eggs'],
  });
  const tiramisu = await stack.console.createItem(restaurant.id, {
    name: 'Tiramisu',
    description: 'Savoiardi soaked in espresso, layered with mascarpone cream and dusted with cocoa.',
    priceCents: 900,
    sectionId: desserts.id,
    allergens: ['milk', 'eggs', 'gluten'],
    dietaryTags: ['vegetarian'],
  });
  const model = await sampleModelFiles();
  await stack.console.uploadModel(burrata.id, model);
  await stack.console.uploadModel(tiramisu.id, model);
  const soup = await stack.console.createItem(restaurant.id, {
    name: '<script>window.__pwned=1</script> Soup',
    description: 'Roasted tomato soup with sourdough croutons.',
    priceCents: 700,
    dietaryTags: ['vegan'],
  });
  await stack.console.createItem(restaurant.id, { name: 'Espresso', priceCents: 250 });
  return { restaurant, tiramisu, soup, models: 2 };
}

/** A fresh tab of the menu page at `width`, watched for problems, once its posters and launcher are up. */
const openMenu = (restaurantId: string, viewport: { width: number; height: number }, models: number) =>
  openMenuPage(browser, stack.gatewayUrl, restaurantId, { viewport, posters: models, timeout: 5000, launcher: true });

type Box = { x: number; y: number; width: number; height: number };
const intersects = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/**
 * The launcher is fixed over the page, so it may cover a dish for a moment; what it must never do is
 * hide one for good. The definition tested: every part of every dish that a guest reads or taps (its
 * name, price, description, badges and "View in 3D" button), every section heading and the closing
 * note can be scrolled to a place where its box is wholly inside the window and does not meet the
 * launcher's box. Since the launcher sits at the bottom, the best place for a part is as high as the
 * page lets it go: the test scrolls each part to the top of the window (the end of the page stops the
 * last ones lower) and compares boxes. Parts high on the page pass trivially; the last ones (the
 * closing note spans the full width, so it always meets the launcher's column) pass only if the page
 * keeps room under them for the launcher's footprint, at each width's launcher size.
 */
async function partsHiddenByLauncher(tab: Page): Promise<string[]> {
  const launcher = (await tab.locator('service-concierge .launcher').boundingBox())!;
  const viewport = tab.viewportSize()!;
  const hidden: string[] = [];
  const parts = tab.locator('.dish h3, .dish .price, .dish .description, .dish .badges, .dish service-viewer button, h2, .colophon');
  for (const part of await parts.all()) {
    await part.evaluate((element) => element.scrollIntoView({ block: 'start' }));
    const box = (await part.boundingBox())!;
    // Scrolling lands on fractions of a pixel: a part counts as in the window within one pixel.
    const inWindow = box.y > -1 && box.y + box.height < viewport.height + 1;
    if (!inWindow || intersects(box, launcher)) hidden.push(`${(await part.textContent())?.trim()} at ${JSON.stringify(box)}`);
  }
  return hidden;
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
    const { restaurant, tiramisu, models } = await menuRestaurant();
    const tab = await browser.newPage();
    // The page's Content-Security-Policy must let both embeds (and the 3D runtime) do all they do: a
    // blocked resource is a console error, one of the problems watched.
    const problems = watchProblems(tab);
    await tab.goto(`${stack.gatewayUrl}/menu/${restaurant.id}`);
    await expect.poll(() => tab.locator('service-viewer img.poster').count(), { timeout: 5000 }).toBe(models);
    await tab.locator('service-viewer button').first().click();
    await expect.poll(() => tab.locator('service-viewer model-viewer canvas').count(), { timeout: 15_000 }).toBeGreaterThan(0);
    await tab.locator('service-concierge .launcher').click();
    await tab.locator('service-concierge input').fill('tiramisu');
    await tab.locator('service-concierge form button').click();
    await expect.poll(() => tab.locator('service-concierge .card').count(), { timeout: 5000 }).toBeGreaterThan(0);
    const href = await tab.locator('service-concierge .card').first().getAttribute('href');
    expect(href).toBe(`${stack.gatewayUrl}/menu/${restaurant.id}#item-${tiramisu.slug}`);
    expect(await tab.evaluate(() => (globalThis as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(problems).toEqual([]);
    await saveScreenshot(tab, 'menu-page.png', { fullPage: true });
    await tab.close();
  });

  describe('as a guest sees it', () => {
    let world: Awaited<ReturnType<typeof menuRestaurant>>;
    beforeAll(async () => {
      world = await menuRestaurant();
    });

    it.each([
      { name: 'phone', width: 390, height: 844 },
      { name: 'small-phone', width: 360, height: 740 },
      { name: 'tablet', width: 700, height: 900 },
      { name: 'desktop', width: 1280, height: 800 },
    ])('reads well at $name width ($width px): nothing to scroll sideways, no console error, no serious axe finding', async (viewport) => {
      const { tab, problems, close } = await openMenu(world.restaurant.id, viewport, world.models);
      expect(await fitsWidth(tab)).toBe(true);
      expect(await seriousViolations(tab)).toEqual([]);
      await saveScreenshot(tab, `menu-page-${viewport.name}.png`, { fullPage: true });
      expect(problems).toEqual([]);
      await close();
    });

    it('has its own icon, allowed by its policy, so the browser never asks for /favicon.ico', async () => {
      const { tab, problems, close } = await openMenu(world.restaurant.id, { width: 1280, height: 800 }, world.models);
      const icon = await tab.locator('link[rel="icon"]').getAttribute('href');
      expect(icon).toMatch(/^data:image\/svg\+xml,/);
      // Loaded as an image by the page itself: under its img-src, and a picture that decodes.
      const size = await tab.evaluate(`new Promise((resolve) => {
        const image = new Image();
        image.onload = () => resolve(image.naturalWidth);
        image.onerror = () => resolve(0);
        image.src = ${JSON.stringify(icon)};
      })`);
      expect(size).toBeGreaterThan(0);
      expect(problems).toEqual([]);
      await close();
    });

    it.each([
      { width: 390, height: 844, launcher: 48 },
      { width: 700, height: 900, launcher: 56 },
      { width: 1280, height: 800, launcher: 56 },
    ])('never hides a dish behind the launcher at $width px', async ({ launcher: size, ...viewport }) => {
      const { tab, problems, close } = await openMenu(world.restaurant.id, viewport, world.models);
      const launcher = tab.locator('service-concierge .launcher');
      expect(await launcher.getAttribute('aria-label')).toBe('Chat with Chez <b>Test</b>');
      expect(await launcher.locator('svg').count()).toBe(1);
      expect((await launcher.boundingBox())?.width).toBe(size);
      expect(await partsHiddenByLauncher(tab)).toEqual([]);
      expect(problems).toEqual([]);
      await close();
    });

    it.each([
      { name: 'phone', width: 390, height: 844 },
      { name: 'desktop', width: 1280, height: 800 },
    ])('shows the open chat with dish cards, thumbnails and all, at $name width', async ({ name, ...viewport }) => {
      const { tab, problems, close } = await openMenu(world.restaurant.id, viewport, world.models);
      await tab.locator('service-concierge .launcher').click();
      // Focus moves into the panel (onto its close button) and, once closed, back to the launcher.
      const focused = () =>
        tab.evaluate<string | undefined>("document.querySelector('service-concierge').shadowRoot.activeElement?.ariaLabel");
      expect(await focused()).toBe('Close');
      await tab.getByRole('textbox', { name: 'Your question' }).fill('tiramisu or soup?');
      await tab.locator('service-concierge form button').click();
      const cards = tab.locator('service-concierge .card');
      await expect.poll(() => cards.count(), { timeout: 5000 }).toBe(2);
      const tiramisu = cards.filter({ hasText: 'Tiramisu' });
      expect(await tiramisu.locator('.name').textContent()).toBe('Tiramisu');
      expect(await tiramisu.locator('.price').textContent()).toMatch(/9\.00/);
      // A model's thumbnail, from the gateway, in its box; the name beside it, so the picture has no alt.
      const thumbnail = tiramisu.locator('.thumb img');
      expect(await thumbnail.getAttribute('alt')).toBe('');
      expect(await thumbnail.getAttribute('src')).toMatch(new RegExp(`^${stack.gatewayUrl}/`));
      await expect.poll(() => thumbnail.evaluateAll(loaded)).toBe(true);
      expect(await tiramisu.locator('.thumb').boundingBox()).toMatchObject({ width: 48, height: 48 });
      // A dish without a model keeps the box, a neutral plate, and no image at all.
      const soup = cards.filter({ hasText: 'Soup' });
      expect(await soup.locator('.name').textContent()).toBe('<script>window.__pwned=1</script> Soup');
      expect(await soup.locator('.thumb img').count()).toBe(0);
      expect(await soup.locator('.thumb').boundingBox()).toMatchObject({ width: 48, height: 48 });
      expect(await tab.evaluate(() => (globalThis as { __pwned?: number }).__pwned)).toBeUndefined();
      expect(await fitsWidth(tab)).toBe(true);
      expect(await seriousViolations(tab)).toEqual([]);
      await saveScreenshot(tab, `menu-page-chat-${name}.png`);
      await tab.locator('service-concierge header button').click();
      expect(await focused()).toBe('Chat with Chez <b>Test</b>');
      expect(problems).toEqual([]);
      await close();
    });
  });
});
