import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, startPageHost } from './browser.js';
import { restaurantWithKey, sampleModelFiles, startStack, type Stack } from './stack.js';

// Signed URLs that live 30 seconds: the viewer must fetch fresh ones before they expire, with its
// view token, so that the refresh counts no second view.
let stack: Stack;
let browser: Browser;
let host: Awaited<ReturnType<typeof startPageHost>>;
beforeAll(async () => {
  stack = await startStack({ env: { ASSET_URL_TTL_SECONDS: '30' } });
  browser = await launchBrowser();
  host = await startPageHost({});
});
afterAll(async () => {
  await browser?.close();
  await host?.close();
  await stack?.stop();
});

describe('<service-viewer> URL refresh', () => {
  it('refetches expiring URLs with its view token, and the refresh counts no view', async () => {
    const { restaurant } = await restaurantWithKey(stack);
    const item = await stack.console.createItem(restaurant.id, { name: 'Tiramisu', priceCents: 900 });
    await stack.console.uploadModel(item.id, await sampleModelFiles());
    const key = await stack.console.createKey({
      restaurantId: restaurant.id,
      type: 'publishable',
      environment: 'live',
      name: 'web',
      allowedOrigins: [host.origin],
    });
    host.pages['/refresh'] =
      `<!doctype html><html><body><service-viewer item-id="${item.id}" publishable-key="${key.value}"></service-viewer>` +
      `<script src="${stack.gatewayUrl}/embed/v1.js"></script></body></html>`;
    const tab = await browser.newPage();
    const loads: string[] = [];
    tab.on('request', (req) => {
      if (req.url().includes('/v1/partner/embed/items/')) loads.push(req.url());
    });
    await tab.goto(`${host.origin}/refresh`);
    await expect.poll(() => loads.length, { timeout: 5000 }).toBeGreaterThanOrEqual(2);
    expect(loads[0]).not.toContain('view=');
    expect(loads[1]).toContain('view=');
    await expect.poll(async () => (await stack.console.usage(restaurant.id)).apiRequests.used).toBe(1);
    await tab.close();
  });
});
