import { sql } from 'kysely';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZAssetUrls, ZItemDetail, zData } from '@partner/contracts';
import { AssetSigner } from '@partner/assets';
import { expectError } from './expect-error.js';
import { grantAccess, integratorWithKey, restaurantWithKey, sampleModelFiles, startStack, type Stack } from './stack.js';

let stack: Stack;
let files: Awaited<ReturnType<typeof sampleModelFiles>>;
beforeAll(async () => {
  stack = await startStack();
  files = await sampleModelFiles();
});
afterAll(() => stack.stop());

async function itemWithModel() {
  const owner = await restaurantWithKey(stack, { rateLimitPerMin: 10_000 });
  const item = await stack.console.createItem(owner.restaurant.id, { name: 'Steak frites', priceCents: 2900, allergens: ['mustard'] });
  const ready = await stack.console.uploadModel(item.id, files);
  expect(ready.model.status).toBe('ready');
  return { ...owner, item };
}

/** The path of a signed asset URL, to call through the gateway under test. */
const pathOf = (url: string) => new URL(url).pathname;

describe('GET /v1/partner/items/{id}', () => {
  it('answers the item with signed, short-lived model URLs', async () => {
    const { item, auth } = await itemWithModel();
    const res = await request(stack.gatewayUrl).get(`/v1/partner/items/${item.id}`).set(auth);
    expect(res.status).toBe(200);
    const { data } = zData(ZItemDetail).parse(res.body);
    expect(data).toMatchObject({ id: item.id, name: 'Steak frites', priceCents: 2900, allergens: ['mustard'], model: { status: 'ready' } });
    expect(data.assets!.glbUrl).toMatch(/^http:\/\/gateway\.test\/v1\/assets\/\d+\/[\w-]+\/[0-9a-f]{64}\/dish\.glb$/);
    expect(data.assets!.usdzUrl).toMatch(/\/dish\.usdz$/);
    expect(data.assets!.thumbnailUrl).toMatch(/\/thumbnail\.png$/);
    const expiresIn = new Date(data.assets!.expiresAt).getTime() - Date.now();
    expect(expiresIn).toBeGreaterThan(14 * 60 * 1000);
    expect(expiresIn).toBeLessThanOrEqual(15 * 60 * 1000);
  });

  it('has null assets until a model is ready', async () => {
    const { restaurant, auth } = await restaurantWithKey(stack);
    const item = await stack.console.createItem(restaurant.id, { name: 'Soup', priceCents: 700 });
    const res = await request(stack.gatewayUrl).get(`/v1/partner/items/${item.id}`).set(auth);
    expect(res.body.data).toMatchObject({ model: { status: 'none', updatedAt: null }, assets: null });
  });

  it.each(['processing', 'failed'] as const)('shows a %s model without assets, and refuses fresh asset URLs for it', async (status) => {
    const { restaurant, auth } = await restaurantWithKey(stack);
    const item = await stack.console.createItem(restaurant.id, { name: 'Soup', priceCents: 700 });
    // The state an upload leaves while it runs, or after it failed, set directly on a never-read item.
    const changedAt = new Date('2026-11-01T12:00:00.000Z');
    await stack.db.updateTable('items').set({ model_status: status, model_updated_at: changedAt }).where('id', '=', item.id).execute();
    const res = await request(stack.gatewayUrl).get(`/v1/partner/items/${item.id}`).set(auth);
    expect(res.body.data).toMatchObject({ model: { status, updatedAt: changedAt.toISOString() }, assets: null });
    const refresh = await request(stack.gatewayUrl).post(`/v1/partner/items/${item.id}/asset-urls`).set(auth);
    expectError(refresh, 409, 'model_not_ready');
    expect(refresh.body.error.message).toContain(status);
  });

  it.each([
    // A 1×1 JFIF JPEG and a 1×1 lossless WebP.
    [
      'jpg',
      'image/jpeg',
      '/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=',
    ],
    ['webp', 'image/webp', 'UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA=='],
  ])('serves a .%s thumbnail as %s', async (extension, contentType, base64) => {
    const { restaurant, auth } = await restaurantWithKey(stack);
    const item = await stack.console.createItem(restaurant.id, { name: 'Tart', priceCents: 800 });
    const thumbnail = Buffer.from(base64, 'base64');
    await stack.console.uploadModel(item.id, { ...files, thumbnail });
    const detail = await request(stack.gatewayUrl).get(`/v1/partner/items/${item.id}`).set(auth);
    expect(detail.body.data.assets.thumbnailUrl).toMatch(new RegExp(`/thumbnail\\.${extension}$`));
    const file = await request(stack.gatewayUrl).get(pathOf(detail.body.data.assets.thumbnailUrl)).buffer(true);
    expect(file.status).toBe(200);
    expect(file.headers['content-type']).toBe(contentType);
    expect(Buffer.compare(file.body as Buffer, thumbnail)).toBe(0);
  });

  it('answers a missing item and an unreachable one with the same 404', async () => {
    const { item } = await itemWithModel();
    const stranger = await restaurantWithKey(stack);
    const unreachable = await request(stack.gatewayUrl).get(`/v1/partner/items/${item.id}`).set(stranger.auth);
    const missing = await request(stack.gatewayUrl).get('/v1/partner/items/itm_000000000000000000000000').set(stranger.auth);
    expectError(unreachable, 404, 'not_found');
    expectError(missing, 404, 'not_found');
    const strip = (body: { error: Record<string, unknown> }) => ({ ...body.error, requestId: undefined });
    expect(strip(unreachable.body)).toEqual(strip(missing.body));
    expect(Object.keys(unreachable.headers).sort()).toEqual(Object.keys(missing.headers).sort());
  });

  it.each([
    ['itm_'],
    ['itm_has-dash'],
    ['rst_abcdef'],
    ['itm_' + 'a'.repeat(200)],
    ['%00'],
    ['%F0%9F%8D%95'],
    ['..%2F..%2Fetc'],
    ["itm_1'or'1'='1"],
  ])('an item id shaped like %s is 404 not_found', async (id) => {
    const { auth } = await restaurantWithKey(stack);
    expectError(await request(stack.gatewayUrl).get(`/v1/partner/items/${id}`).set(auth), 404, 'not_found');
  });

  it('a deleted item is 404', async () => {
    const { item, auth } = await itemWithModel();
    await stack.console.deleteItem(item.id);
    expectError(await request(stack.gatewayUrl).get(`/v1/partner/items/${item.id}`).set(auth), 404, 'not_found');
  });

  it('reflects every console change at once, though item lookups are cached', async () => {
    const { restaurant, item, auth } = await itemWithModel();
    const integrator = await integratorWithKey(stack);
    const grant = await grantAccess(stack, integrator.org.id, restaurant.id);
    const detail = (headers: Record<string, string>) => request(stack.gatewayUrl).get(`/v1/partner/items/${item.id}`).set(headers);
    expect((await detail(auth)).body.data.name).toBe('Steak frites');
    expect((await detail(integrator.auth)).status).toBe(200);

    await stack.console.updateItem(item.id, { name: 'Steak au poivre', priceCents: 3100 });
    expect((await detail(auth)).body.data).toMatchObject({ name: 'Steak au poivre', priceCents: 3100 });

    await stack.console.updateRestaurant(restaurant.id, { subscriptionStatus: 'lapsed' });
    expectError(await detail(auth), 403, 'subscription_inactive');
    await stack.console.updateRestaurant(restaurant.id, { subscriptionStatus: 'active' });
    expect((await detail(auth)).status).toBe(200);
    expect((await detail(integrator.auth)).status).toBe(200);

    await stack.console.revokeGrant(grant.id);
    expectError(await detail(integrator.auth), 404, 'not_found');

    await stack.console.deleteItem(item.id);
    expectError(await detail(auth), 404, 'not_found');
  });

  it('drops a cached item when a delete is retried after its invalidation was lost', async () => {
    const { item, auth } = await itemWithModel();
    const detail = () => request(stack.gatewayUrl).get(`/v1/partner/items/${item.id}`).set(auth);
    expect((await detail()).status).toBe(200);
    // A delete that committed but never told the catalog (console lost Redis right after the commit).
    await stack.db.updateTable('items').set({ deleted_at: new Date(), updated_at: new Date() }).where('id', '=', item.id).execute();
    expect((await detail()).status).toBe(200);
    // The caller saw the delete fail and retries it.
    await expect(stack.console.deleteItem(item.id)).rejects.toMatchObject({ status: 404, code: 'not_found' });
    expectError(await detail(), 404, 'not_found');
  });

  it('an integrator whose grant lacks assets:read gets 403 forbidden_scope', async () => {
    const { restaurant, item } = await itemWithModel();
    const integrator = await integratorWithKey(stack);
    const link = await stack.console.createConnectLink(integrator.org.id, { scopes: ['menu:read'] });
    await stack.console.approveConnectLink(link.token, restaurant.id);
    expectError(await request(stack.gatewayUrl).get(`/v1/partner/items/${item.id}`).set(integrator.auth), 403, 'forbidden_scope');
    const full = await integratorWithKey(stack);
    await grantAccess(stack, full.org.id, restaurant.id);
    expect((await request(stack.gatewayUrl).get(`/v1/partner/items/${item.id}`).set(full.auth)).status).toBe(200);
  });
});

describe('signed asset files through the gateway', () => {
  it('serves each file bare, with its content type, CORS and ranges', async () => {
    const { item, auth } = await itemWithModel();
    const { assets } = (await request(stack.gatewayUrl).get(`/v1/partner/items/${item.id}`).set(auth)).body.data;
    const glb = await request(stack.gatewayUrl)
      .get(pathOf(assets.glbUrl))
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect(glb.status).toBe(200);
    expect(glb.headers['content-type']).toBe('model/gltf-binary');
    expect(glb.headers['access-control-allow-origin']).toBe('*');
    expect(Buffer.compare(glb.body as Buffer, files.glb)).toBe(0);

    const usdz = await request(stack.gatewayUrl).head(pathOf(assets.usdzUrl));
    expect(usdz.status).toBe(200);
    expect(usdz.headers['content-type']).toBe('model/vnd.usdz+zip');
    expect(Number(usdz.headers['content-length'])).toBe(files.usdz.length);
    expect((await request(stack.gatewayUrl).head(pathOf(assets.thumbnailUrl))).headers['content-type']).toBe('image/png');

    const part = await request(stack.gatewayUrl).get(pathOf(assets.glbUrl)).set('Range', 'bytes=0-11');
    expect(part.status).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 0-11/${files.glb.length}`);
    expect(part.headers['content-length']).toBe('12');
    const beyond = await request(stack.gatewayUrl)
      .get(pathOf(assets.glbUrl))
      .set('Range', `bytes=${files.glb.length + 10}-`);
    expectError(beyond, 416, 'range_not_satisfiable');
  });

  it('refuses an expired URL with 403 expired_signature and a tampered one with 403 invalid_signature', async () => {
    const { item, auth } = await itemWithModel();
    const { assets } = (await request(stack.gatewayUrl).get(`/v1/partner/items/${item.id}`).set(auth)).body.data;
    const [, , , exp, sig, hash, name] = pathOf(assets.glbUrl).split('/');
    const signer = new AssetSigner({ secret: stack.secrets.asset, publicBaseUrl: '', ttlSeconds: 60 });
    const expired = signer.url(`${hash}.glb`, new Date(Date.now() - 1000));
    expectError(await request(stack.gatewayUrl).get(expired), 403, 'expired_signature');

    const flipped = sig!.startsWith('A') ? `B${sig!.slice(1)}` : `A${sig!.slice(1)}`;
    expectError(await request(stack.gatewayUrl).get(`/v1/assets/${exp}/${flipped}/${hash}/${name}`), 403, 'invalid_signature');
    const later = Number(exp) + 3600;
    expectError(await request(stack.gatewayUrl).get(`/v1/assets/${later}/${sig}/${hash}/${name}`), 403, 'invalid_signature');
    expectError(await request(stack.gatewayUrl).get(`/v1/assets/${exp}/${sig}/${hash}/dish.usdz`), 403, 'invalid_signature');
    expectError(await request(stack.gatewayUrl).get('/v1/assets/garbage'), 403, 'invalid_signature');
  });
});

describe('POST /v1/partner/items/{id}/asset-urls', () => {
  it('issues fresh URLs, optionally for some formats only', async () => {
    const { item, auth } = await itemWithModel();
    const res = await request(stack.gatewayUrl).post(`/v1/partner/items/${item.id}/asset-urls`).set(auth);
    expect(res.status).toBe(200);
    const { data } = zData(ZAssetUrls).parse(res.body);
    expect(data.itemId).toBe(item.id);
    expect(data.glbUrl && data.usdzUrl && data.thumbnailUrl).toBeTruthy();
    const onlyGlb = await request(stack.gatewayUrl)
      .post(`/v1/partner/items/${item.id}/asset-urls`)
      .set(auth)
      .send({ formats: ['glb'] });
    expect(onlyGlb.body.data).toMatchObject({ usdzUrl: null, glbUrl: expect.any(String) });
  });

  it('refuses bad bodies and items without a ready model', async () => {
    const { restaurant, item, auth } = await itemWithModel();
    const post = () => request(stack.gatewayUrl).post(`/v1/partner/items/${item.id}/asset-urls`).set(auth);
    expectError(await post().send({ formats: ['obj'] }), 400, 'invalid_request');
    expectError(await post().send({ formats: [] }), 400, 'invalid_request');
    expectError(await post().send({ format: 'glb' }), 400, 'invalid_request');
    expectError(await post().send([1, 2]), 400, 'invalid_request');
    const bare = await stack.console.createItem(restaurant.id, { name: 'No model', priceCents: 100 });
    const used = async () => (await stack.console.usage(restaurant.id)).apiRequests.used;
    const before = await used();
    expectError(await request(stack.gatewayUrl).post(`/v1/partner/items/${bare.id}/asset-urls`).set(auth), 409, 'model_not_ready');
    expect(await used()).toBe(before);
  });

  describe('Idempotency-Key', () => {
    it('replays the first answer for a retry', async () => {
      const { item, auth } = await itemWithModel();
      const post = () =>
        request(stack.gatewayUrl)
          .post(`/v1/partner/items/${item.id}/asset-urls`)
          .set(auth)
          .set('Idempotency-Key', 'refresh-1')
          .send({ formats: ['glb'] });
      const first = await post();
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const second = await post();
      expect(second.status).toBe(first.status);
      expect(second.body).toEqual(first.body);
      expect(second.headers['idempotent-replayed']).toBe('true');
    });

    it('refuses the same key for a different request with 409 idempotency_key_conflict', async () => {
      const { item, auth } = await itemWithModel();
      const path = `/v1/partner/items/${item.id}/asset-urls`;
      await request(stack.gatewayUrl)
        .post(path)
        .set(auth)
        .set('Idempotency-Key', 'k-2')
        .send({ formats: ['glb'] });
      expectError(
        await request(stack.gatewayUrl)
          .post(path)
          .set(auth)
          .set('Idempotency-Key', 'k-2')
          .send({ formats: ['usdz'] }),
        409,
        'idempotency_key_conflict',
      );
    });

    it('runs two concurrent requests with one key once', async () => {
      const { item, auth } = await itemWithModel();
      const path = `/v1/partner/items/${item.id}/asset-urls`;
      const before = await stack.db
        .selectFrom('usage_counters')
        .select('used')
        .where('restaurant_id', '=', item.restaurantId)
        .executeTakeFirst();
      const answers = await Promise.all(
        Array.from({ length: 5 }, () => request(stack.gatewayUrl).post(path).set(auth).set('Idempotency-Key', 'same-key').send({})),
      );
      expect(new Set(answers.map((res) => JSON.stringify(res.body))).size).toBe(1);
      const after = await stack.db
        .selectFrom('usage_counters')
        .select('used')
        .where('restaurant_id', '=', item.restaurantId)
        .executeTakeFirst();
      expect(after!.used - (before?.used ?? 0)).toBe(1);
    });

    it('replays the first answer after the service restarted (records live in Postgres)', async () => {
      const { item, auth } = await itemWithModel();
      const post = () =>
        request(stack.gatewayUrl).post(`/v1/partner/items/${item.id}/asset-urls`).set(auth).set('Idempotency-Key', 'durable').send({});
      const first = await post();
      expect(first.status).toBe(200);
      await stack.restartCatalog();
      const retry = await post();
      expect(retry.headers['idempotent-replayed']).toBe('true');
      expect(retry.body).toEqual(first.body);
    });

    it('forgets a key after 24 hours: it may then carry a new request', async () => {
      const { item, key, auth } = await itemWithModel();
      const post = (formats: string[]) =>
        request(stack.gatewayUrl)
          .post(`/v1/partner/items/${item.id}/asset-urls`)
          .set(auth)
          .set('Idempotency-Key', 'daily')
          .send({ formats });
      expect((await post(['glb'])).status).toBe(200);
      expectError(await post(['usdz']), 409, 'idempotency_key_conflict');
      await sql`update idempotency_records set created_at = now() - interval '24 hours 1 second' where api_key_id = ${key.id}`.execute(
        stack.db,
      );
      const fresh = await post(['usdz']);
      expect(fresh.status).toBe(200);
      expect(fresh.headers['idempotent-replayed']).toBeUndefined();
      expect(fresh.body.data.usdzUrl).toBeTruthy();
    });

    it('does not keep a 429: once the quota allows it, a retry with the same key runs', async () => {
      const { restaurant, item, auth } = await itemWithModel();
      await stack.console.updateRestaurant(restaurant.id, { monthlyQuota: 0 });
      const post = () =>
        request(stack.gatewayUrl).post(`/v1/partner/items/${item.id}/asset-urls`).set(auth).set('Idempotency-Key', 'after-quota').send({});
      expectError(await post(), 429, 'quota_exceeded');
      await stack.console.updateRestaurant(restaurant.id, { monthlyQuota: 1_000 });
      const retry = await post();
      expect(retry.status).toBe(200);
      expect(retry.headers['idempotent-replayed']).toBeUndefined();
    });

    it.each([[''], ['x'.repeat(256)], ['tab\there']])('refuses a malformed key %j', async (value) => {
      const { item, auth } = await itemWithModel();
      const res = await request(stack.gatewayUrl)
        .post(`/v1/partner/items/${item.id}/asset-urls`)
        .set(auth)
        .set('Idempotency-Key', value)
        .send({});
      expectError(res, 400, 'invalid_request');
    });
  });
});
