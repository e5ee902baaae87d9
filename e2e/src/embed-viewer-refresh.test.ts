import { describe, expect, it } from 'vitest';
import { useEmbedHarness } from './browser.js';
import { restaurantWithKey, sampleModelFiles } from './stack.js';

// Signed URLs that live 30 seconds: the viewer must fetch fresh ones before they expire, with its
// view token, so that the refresh counts no second view.
const h = useEmbedHarness({ script: 'v1.js', stack: { env: { ASSET_URL_TTL_SECONDS: '30' } } });

describe('<service-viewer> URL refresh', () => {
  it('refetches expiring URLs with its view token, and the refresh counts no view', async () => {
    const { restaurant } = await restaurantWithKey(h.stack);
    const item = await h.stack.console.createItem(restaurant.id, { name: 'Tiramisu', priceCents: 900 });
    await h.stack.console.uploadModel(item.id, await sampleModelFiles());
    const key = await h.publishableKey(restaurant.id, 'live');
    const { tab, requests } = await h.open(
      '/refresh',
      h.page(`<service-viewer item-id="${item.id}" publishable-key="${key}"></service-viewer>`),
    );
    const loads = () => requests.filter((url) => url.includes('/v1/partner/embed/items/'));
    await expect.poll(() => loads().length, { timeout: 5000 }).toBeGreaterThanOrEqual(2);
    expect(loads()[0]).not.toContain('view=');
    expect(loads()[1]).toContain('view=');
    await expect.poll(async () => (await h.stack.console.usage(restaurant.id)).apiRequests.used).toBe(1);
    await tab.context().close();
  });
});
