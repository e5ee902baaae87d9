import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { seedDemo, type DemoState } from '@partner/infra/seed';
import { DEMO_MENU } from '@partner/sample-dish';
import { launchBrowser, openMenuPage, saveScreenshot } from './browser.js';
import { seriousViolations } from './dashboard.js';
import { loaded } from './page-watch.js';
import { startStack, type Stack } from './stack.js';

// The first thing a newcomer opens: the demo restaurant `pnpm start` seeds (the same code), its menu
// page in Chromium, with a model of its own for every dish, and the concierge asked about one of them.
let stack: Stack;
let browser: Browser;
let demo: DemoState;
beforeAll(async () => {
  stack = await startStack({ realPublicUrl: true, env: { MENU_PAGE_KEY_ENVIRONMENT: 'test' } });
  browser = await launchBrowser();
  demo = await seedDemo({ consoleUrl: stack.consoleUrl, adminToken: stack.adminToken, gatewayUrl: stack.gatewayUrl, previous: undefined });
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

const DISHES = DEMO_MENU.flatMap((section) => section.dishes);

const openDemo = (viewport: { width: number; height: number }) =>
  openMenuPage(browser, stack.gatewayUrl, demo.restaurantId, { viewport, posters: DISHES.length, timeout: 10_000 });

describe('the demo menu page', () => {
  it('shows every dish with its description and a picture of its own', async () => {
    const { tab, posters, problems, close } = await openDemo({ width: 1280, height: 900 });
    for (const dish of DISHES) {
      const card = tab.locator('article.dish', { hasText: dish.name });
      expect(await card.count()).toBe(1);
      expect(await card.textContent()).toContain(dish.description);
    }
    // Eight dishes, eight different pictures (the thumbnails rendered from each dish's model).
    const sources = await posters.evaluateAll((images: Array<{ src: string }>) => images.map((image) => image.src));
    const digests = await Promise.all(
      sources.map(async (src) =>
        createHash('sha256')
          .update(Buffer.from(await (await fetch(src)).arrayBuffer()))
          .digest('hex'),
      ),
    );
    expect(new Set(digests).size).toBe(DISHES.length);
    expect(await seriousViolations(tab)).toEqual([]);
    await saveScreenshot(tab, 'demo-menu-desktop.png', { fullPage: true });
    expect(problems).toEqual([]);
    await close();
  });

  it('reads well on a phone', async () => {
    const { tab, problems, close } = await openDemo({ width: 390, height: 844 });
    expect(await seriousViolations(tab)).toEqual([]);
    await saveScreenshot(tab, 'demo-menu-phone.png', { fullPage: true });
    expect(problems).toEqual([]);
    await close();
  });

  it('shows a dish in 3D, its own model, framed from a diner’s angle', async () => {
    const { tab, problems, close } = await openDemo({ width: 1280, height: 900 });
    const salmon = tab.locator('article.dish', { hasText: 'Miso-glazed salmon' });
    await salmon.locator('service-viewer button').first().click();
    const viewer = salmon.locator('service-viewer model-viewer');
    // Functions typed by hand: this project compiles without the DOM's types.
    await expect.poll(() => viewer.evaluate((el: { loaded: boolean }) => el.loaded), { timeout: 30_000 }).toBe(true);
    // True to size: the model's bounding box is the generator's, in metres (a fillet on greens on a plate).
    const size = await viewer.evaluate((el: { getDimensions(): { x: number; y: number; z: number } }) => {
      const { x, y, z } = el.getDimensions();
      return { x, y, z };
    });
    expect(Math.max(size.x, size.z)).toBeGreaterThan(0.2);
    expect(Math.max(size.x, size.z)).toBeLessThan(0.35);
    expect(size.y).toBeLessThan(0.1);
    await salmon.scrollIntoViewIfNeeded();
    await saveScreenshot(tab, 'demo-dish-3d.png');
    expect(problems).toEqual([]);
    await close();
  });

  it('has a concierge that finds the right dish, card and thumbnail first', async () => {
    const { tab, problems, close } = await openDemo({ width: 1280, height: 900 });
    await tab.locator('service-concierge .launcher').click();
    await tab.getByRole('textbox', { name: 'Your question' }).fill('Anything with salmon?');
    await tab.locator('service-concierge form button').click();
    const cards = tab.locator('service-concierge .card');
    await expect.poll(() => cards.count(), { timeout: 10_000 }).toBeGreaterThan(0);
    expect(await cards.first().locator('.name').textContent()).toBe('Miso-glazed salmon');
    await expect.poll(() => cards.first().locator('.thumb img').evaluateAll(loaded)).toBe(true);
    await saveScreenshot(tab, 'demo-menu-chat.png');
    expect(problems).toEqual([]);
    await close();
  });
});
