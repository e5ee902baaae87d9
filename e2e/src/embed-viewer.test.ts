import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { saveScreenshot, useEmbedHarness } from './browser.js';
import { restaurantWithKey, sampleModelFiles } from './stack.js';

// The dish viewer in a real browser (headless Chromium with WebGL), on a third-party page that loads
// v1.js from the gateway.
const h = useEmbedHarness({ script: 'v1.js' });

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1';
const ANDROID = 'Mozilla/5.0 (Linux; Android 15; Pixel 9) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';
const INSTAGRAM = `${IPHONE} Instagram 350.0.0.0.0`;

const page = (body: string) => h.page(body);
const open = (path: string, html: string, userAgent?: string) => h.open(path, html, userAgent);

async function viewerItem() {
  const { restaurant } = await restaurantWithKey(h.stack);
  const item = await h.stack.console.createItem(restaurant.id, { name: 'Tiramisu', priceCents: 900 });
  await h.stack.console.uploadModel(item.id, await sampleModelFiles());
  return { item, key: await h.publishableKey(restaurant.id) };
}

describe('<service-viewer>', () => {
  it('demo shows the sample poster, makes no API call, and a tap brings up a 3D canvas', async () => {
    const { tab, requests } = await open('/demo', page('<div style="width:320px"><service-viewer demo></service-viewer></div>'));
    await expect.poll(() => tab.locator('service-viewer img.poster').count()).toBe(1);
    const box = await tab.locator('service-viewer').boundingBox();
    expect(Math.round(box!.width)).toBe(Math.round(box!.height)); // square when unstyled
    await saveScreenshot(tab, 'viewer-demo-poster.png');
    expect(requests.some((url) => url.includes('model-viewer.v1.js'))).toBe(false);
    await tab.locator('service-viewer button').click();
    await expect.poll(() => tab.locator('service-viewer model-viewer canvas').count(), { timeout: 15_000 }).toBeGreaterThan(0);
    expect(requests.filter((url) => url.includes('/v1/partner'))).toEqual([]);
    await tab.waitForTimeout(500);
    await saveScreenshot(tab, 'viewer-demo-3d.png');
    await tab.context().close();
  });

  it('demo="phone" gives the AR-first presentation on desktop, and autoload opens the 3D view without a tap', async () => {
    const phone = await open('/phone', page('<div style="width:320px"><service-viewer demo="phone"></service-viewer></div>'));
    await expect.poll(() => phone.tab.locator('service-viewer a[rel="ar"]').count()).toBe(1);
    expect(await phone.tab.locator('service-viewer a[rel="ar"]').getAttribute('href')).toMatch(/sample-dish\.usdz#allowsContentScaling=0$/);
    await saveScreenshot(phone.tab, 'viewer-demo-phone.png');
    await phone.tab.context().close();

    const auto = await open('/autoload', page('<div style="width:320px"><service-viewer demo autoload></service-viewer></div>'));
    await expect.poll(() => auto.tab.locator('service-viewer model-viewer canvas').count(), { timeout: 15_000 }).toBeGreaterThan(0);
    await auto.tab.context().close();
  });

  it('takes its API origin from data-api on the script tag', async () => {
    const { item, key } = await viewerItem();
    const { tab, requests } = await open(
      '/data-api',
      h.page(`<service-viewer item-id="${item.id}" publishable-key="${key}"></service-viewer>`, ' data-api="http://127.0.0.1:9"'),
    );
    await expect.poll(() => requests.some((url) => url.startsWith('http://127.0.0.1:9/v1/partner/embed/items/'))).toBe(true);
    await expect.poll(() => tab.locator('service-viewer .message').count(), { timeout: 5000 }).toBe(1);
    await tab.context().close();
  });

  it('fills any size given to it', async () => {
    const { tab } = await open('/sized', page('<service-viewer demo style="width:400px;height:250px"></service-viewer>'));
    const box = await tab.locator('service-viewer').boundingBox();
    expect([Math.round(box!.width), Math.round(box!.height)]).toEqual([400, 250]);
    await tab.context().close();
  });

  it('loads a real item through the gateway from an allowed origin, with the TEST MODE badge, and opens it in 3D', async () => {
    const { item, key } = await viewerItem();
    const { tab } = await open(
      '/live',
      page(`<div style="width:320px"><service-viewer item-id="${item.id}" publishable-key="${key}"></service-viewer></div>`),
    );
    await expect.poll(() => tab.locator('service-viewer img.poster').count(), { timeout: 5000 }).toBe(1);
    expect(await tab.locator('service-viewer .badge').textContent()).toBe('TEST MODE');
    await tab.locator('service-viewer button').click();
    await expect.poll(() => tab.locator('service-viewer model-viewer canvas').count(), { timeout: 15_000 }).toBeGreaterThan(0);
    expect(await tab.locator('service-viewer model-viewer').getAttribute('src')).toMatch(/\/dish\.glb$/);
    await tab.context().close();
  });

  it('opens in 3D on a page that defines its own <model-viewer>', async () => {
    const { tab } = await open(
      '/host-model-viewer',
      page(
        '<script>customElements.define("model-viewer", class extends HTMLElement {});</script>' +
          '<div style="width:320px"><service-viewer demo></service-viewer></div>',
      ),
    );
    await tab.locator('service-viewer button').click();
    await expect.poll(() => tab.locator('service-viewer model-viewer').count()).toBe(1);
    expect(await tab.locator('service-viewer .message').count()).toBe(0);
    await tab.context().close();
  });

  it("shows a clear error on a page whose origin is not on the key's list", async () => {
    const { item } = await viewerItem();
    const other = await restaurantWithKey(h.stack);
    const key = await h.stack.console.createKey({
      restaurantId: other.restaurant.id,
      type: 'publishable',
      environment: 'test',
      name: 'web',
      allowedOrigins: ['https://elsewhere.example'],
    });
    const { tab } = await open('/refused', page(`<service-viewer item-id="${item.id}" publishable-key="${key.value}"></service-viewer>`));
    await expect.poll(() => tab.locator('service-viewer .message').textContent(), { timeout: 5000 }).toContain('not allowed');
    await saveScreenshot(tab, 'viewer-origin-refused.png');
    await tab.context().close();
  });

  it('says so when the key is missing', async () => {
    const { tab } = await open('/nokey', page('<service-viewer item-id="itm_x"></service-viewer>'));
    await expect.poll(() => tab.locator('service-viewer .message').textContent()).toContain('publishable key');
    await tab.context().close();
  });

  it.each([
    [
      'iPhone Safari',
      IPHONE,
      async (tab: Page) =>
        expect(await tab.locator('service-viewer a[rel="ar"]').getAttribute('href')).toMatch(/\/dish\.usdz#allowsContentScaling=0$/),
    ],
    [
      'Android Chrome',
      ANDROID,
      async (tab: Page) =>
        expect(await tab.locator('service-viewer a.ar').getAttribute('href')).toMatch(
          /^intent:\/\/arvr\.google\.com\/scene-viewer\/1\.0\?file=.*dish\.glb.*&resizable=false/,
        ),
    ],
    [
      'an in-app browser',
      INSTAGRAM,
      async (tab: Page) => {
        expect(await tab.locator('service-viewer a.ar').count()).toBe(0);
        expect(await tab.locator('service-viewer .hint').textContent()).toContain('Open this page in your browser');
      },
    ],
  ])('gives %s the right AR affordance', async (_name, userAgent, check) => {
    const { item, key } = await viewerItem();
    const { tab } = await open(
      `/ar-${encodeURIComponent(_name)}`,
      page(`<service-viewer item-id="${item.id}" publishable-key="${key}"></service-viewer>`),
      userAgent,
    );
    await expect.poll(() => tab.locator('service-viewer img.poster').count(), { timeout: 5000 }).toBe(1);
    await check(tab);
    await tab.context().close();
  });
});
