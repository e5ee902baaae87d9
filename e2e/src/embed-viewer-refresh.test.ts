import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useEmbedHarness } from './browser.js';
import { restaurantWithKey, sampleModelFiles } from './stack.js';

// Signed URLs that live 30 seconds: the viewer must fetch fresh ones before they expire (at half their
// life, since that is shorter than its 30-second margin), with its view token, so that the refresh counts
// no second view. The page's clock is Playwright's, moved by the test; the requests are real.
const h = useEmbedHarness({ script: 'v1.js', stack: { env: { ASSET_URL_TTL_SECONDS: '30' } } });

const ANDROID = 'Mozilla/5.0 (Linux; Android 15; Pixel 9) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';
const ITEM_LOADS = '/v1/partner/embed/items/';

/** A published dish (with a model unless `model: false`), on a page with a clock the test moves, as Android sees it. */
async function openViewer(path: string, options: { model?: boolean } = {}) {
  const { restaurant } = await restaurantWithKey(h.stack);
  const item = await h.stack.console.createItem(restaurant.id, { name: 'Tiramisu', priceCents: 900 });
  if (options.model !== false) await h.stack.console.uploadModel(item.id, await sampleModelFiles());
  const key = await h.publishableKey(restaurant.id, 'live');
  const { tab, requests } = await h.open(
    path,
    h.page(`<service-viewer item-id="${item.id}" publishable-key="${key}"></service-viewer>`),
    ANDROID,
    (tab) => tab.clock.install(),
  );
  const loads = () => requests.filter((url) => url.includes(ITEM_LOADS));
  // Shown, and so its refresh planned: the clock may move from here.
  await expect.poll(() => tab.locator('service-viewer .stage').count(), { timeout: 5000 }).toBe(1);
  expect(loads()).toHaveLength(1);
  return { restaurant, tab, loads };
}

const arLink = (tab: Page) => tab.locator('service-viewer a.ar').getAttribute('href');

describe('<service-viewer> URL refresh', () => {
  it('refetches expiring URLs with its view token, hands them to the AR link, and the refresh counts no view', async () => {
    const { restaurant, tab, loads } = await openViewer('/refresh');
    await expect.poll(() => arLink(tab), { timeout: 5000 }).toMatch(/resizable=false/);
    const first = await arLink(tab);
    // Signatures carry their expiry in seconds: a refresh a second later signs other URLs.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await tab.clock.runFor(10_000);
    expect(loads()).toHaveLength(1);
    await tab.clock.runFor(6_000);
    await expect.poll(() => loads().length, { timeout: 5000 }).toBe(2);
    expect(loads()[0]).not.toContain('view=');
    expect(loads()[1]).toContain('view=');
    await expect.poll(() => arLink(tab), { timeout: 5000 }).not.toBe(first);
    expect(await arLink(tab)).toMatch(/resizable=false/);
    await expect.poll(async () => (await h.stack.console.usage(restaurant.id)).apiRequests.used).toBe(1);
    await tab.context().close();
  });

  it('keeps showing the dish when a refresh fails, and tries again later', async () => {
    const { tab, loads } = await openViewer('/refresh-fails');
    await tab.route(`**${ITEM_LOADS}**`, (route) => route.abort('internetdisconnected'));
    await tab.clock.runFor(16_000);
    await expect.poll(() => loads().length, { timeout: 5000 }).toBe(2);
    await tab.waitForTimeout(200);
    expect(await tab.locator('service-viewer .message').count()).toBe(0);
    expect(await tab.locator('service-viewer img.poster').count()).toBe(1);
    await tab.unroute(`**${ITEM_LOADS}**`);
    // The retry is planned once the failed refresh has been handled: move the clock until it has run.
    await expect.poll(async () => (await tab.clock.runFor(15_000), loads().length), { timeout: 10_000 }).toBeGreaterThanOrEqual(3);
    await tab.context().close();
  });

  it('asks once for a dish without a model: there are no URLs to refresh', async () => {
    const { tab, loads } = await openViewer('/no-model', { model: false });
    await tab.clock.runFor(20 * 60_000);
    await tab.waitForTimeout(300);
    expect(loads()).toHaveLength(1);
    await tab.context().close();
  });

  it('stops refreshing once removed from the page, and once put back refreshes the URLs that expired meanwhile', async () => {
    const { tab, loads } = await openViewer('/removed');
    // Parked on the page's global object, off the document (e2e has no DOM types: the page runs these as written).
    await tab.evaluate('globalThis.parked = document.querySelector("service-viewer"); globalThis.parked.remove()');
    await tab.clock.runFor(5 * 60_000);
    await tab.waitForTimeout(300);
    expect(loads()).toHaveLength(1);
    await tab.evaluate('document.body.append(globalThis.parked)');
    await expect.poll(() => loads().length, { timeout: 5000 }).toBe(2);
    await tab.context().close();
  });
});
