import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZEmbedItem, zData } from '@partner/contracts';
import { expectError } from './expect-error.js';
import { restaurantWithKey, sampleModelFiles, startStack, type Stack } from './stack.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.stop());

const ORIGIN = 'https://bistro.example';

async function viewerSetup(environment: 'live' | 'test') {
  const { restaurant, key } = await restaurantWithKey(stack, { type: 'publishable', environment, allowedOrigins: [ORIGIN] });
  const item = await stack.console.createItem(restaurant.id, { name: 'Tiramisu', priceCents: 900 });
  await stack.console.uploadModel(item.id, await sampleModelFiles());
  const headers = { Authorization: `Bearer ${key.value}`, Origin: ORIGIN };
  const load = (query: Record<string, string> = {}) =>
    request(stack.gatewayUrl).get(`/v1/partner/embed/items/${item.id}`).query(query).set(headers);
  return { restaurant, item, headers, load };
}

describe('GET /v1/partner/embed/items/{id}', () => {
  it('gives the viewer its signed URLs, counts one view per load, and none for a refresh with the view token', async () => {
    const { restaurant, item, load } = await viewerSetup('live');
    const first = await load();
    expect(first.status).toBe(200);
    expect(first.headers['access-control-allow-origin']).toBe(ORIGIN);
    const data = zData(ZEmbedItem).parse(first.body).data;
    expect(data).toMatchObject({ itemId: item.id, name: 'Tiramisu', testMode: false });
    expect(data.glbUrl).toMatch(/\/dish\.glb$/);
    expect(data.usdzUrl).toMatch(/\/dish\.usdz$/);
    expect(await stack.console.usage(restaurant.id)).toMatchObject({ apiRequests: { used: 1 }, embedViews: { used: 1 } });

    const refreshed = await load({ view: data.viewToken });
    expect(refreshed.status).toBe(200);
    expect(await stack.console.usage(restaurant.id)).toMatchObject({ apiRequests: { used: 1 }, embedViews: { used: 1 } });

    const forged = `${data.viewToken.split('.')[0]}.AAAA`;
    await load({ view: forged });
    expect(await stack.console.usage(restaurant.id)).toMatchObject({ apiRequests: { used: 2 }, embedViews: { used: 2 } });
  });

  it('never counts test keys', async () => {
    const { restaurant, load } = await viewerSetup('test');
    const res = await load();
    expect(res.body.data.testMode).toBe(true);
    expect(await stack.console.usage(restaurant.id)).toMatchObject({ apiRequests: { used: 0 }, embedViews: { used: 0 } });
  });

  it("answers another restaurant's item as not found, and refuses an origin off the list", async () => {
    const { item } = await viewerSetup('live');
    const other = await viewerSetup('live');
    expectError(await request(stack.gatewayUrl).get(`/v1/partner/embed/items/${item.id}`).set(other.headers), 404, 'not_found');
    const offList = await request(stack.gatewayUrl)
      .get(`/v1/partner/embed/items/${item.id}`)
      .set({ ...other.headers, Origin: 'https://evil.example' });
    expectError(offList, 403, 'origin_not_allowed');
  });
});
