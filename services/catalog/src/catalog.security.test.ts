import request from 'supertest';
import { describe, expect, it } from 'vitest';
import type { Principal } from '@partner/auth';
import { AssetSigner } from '@partner/assets';
import { accessInvalidations, newId } from '@partner/http';
import { encodeListCursor, HmacKey, ViewTokens } from '@partner/signing';
import { keyPrincipalFor } from '@partner/testing';
import { VIEW_TOKEN_LIFETIME_MS } from './deps.js';
import {
  ASSET_URL_TTL_SECONDS,
  expectError,
  PUBLIC_BASE_URL,
  publicPrincipal,
  publishableKey,
  testKey,
  useAppHarness,
} from './testing/app-harness.js';
import {
  usageCounters,
  apiRequestsUsed,
  deleteItem,
  seedIntegrator,
  seedItem,
  seedRestaurant,
  seedSection,
  storeModelFiles,
  touchItem,
} from './testing/factories.js';

const h = useAppHarness();

const DAY_MS = 24 * 3600 * 1000;
const restaurantsPath = '/v1/partner/restaurants';
const listPath = (restaurantId: string, query = '') => `/v1/partner/restaurants/${restaurantId}/items${query ? `?${query}` : ''}`;
const menuPath = (restaurantId: string) => `/v1/partner/restaurants/${restaurantId}/menu`;
const detailPath = (itemId: string) => `/v1/partner/items/${itemId}`;
const assetUrlsPath = (itemId: string) => `/v1/partner/items/${itemId}/asset-urls`;
const embedPath = (itemId: string, view?: string) =>
  `/v1/partner/embed/items/${itemId}${view === undefined ? '' : `?view=${encodeURIComponent(view)}`}`;
const withCursor = (path: string, cursor: string) => `${path}${path.includes('?') ? '&' : '?'}cursor=${encodeURIComponent(cursor)}`;

type Response = request.Response;

/** `foreign` is answered exactly as `missing` is: the same 404 envelope, only the request id differs. */
function expectAnsweredAsMissing(foreign: Response, missing: Response): void {
  expectError(missing, 404, 'not_found');
  expectError(foreign, 404, 'not_found');
  expect({ ...foreign.body.error, requestId: null }).toEqual({ ...missing.body.error, requestId: null });
  expect(foreign.headers['content-type']).toBe(missing.headers['content-type']);
}

/** The API-request counters of each restaurant, to compare before and after. */
const countersOf = (restaurantIds: string[]) => Promise.all(restaurantIds.map((id) => usageCounters(h.deps.db, id)));

/** A restaurant with one published dish whose model is ready (so every item route has something to answer). */
async function seedDish(overrides: Parameters<typeof seedRestaurant>[1] = {}) {
  const { restaurant, owner } = await seedRestaurant(h.deps.db, overrides);
  const files = await storeModelFiles(h.deps.storage);
  const item = await seedItem(h.deps.db, restaurant.id, files.columns);
  return { restaurant, owner, item, files };
}

describe('object level authorization: another owner’s resource is a missing one', () => {
  interface Target {
    restaurantId: string;
    itemId: string;
  }
  interface IdRoute {
    /** What the rightful owner's test key gets (the route really reaches the resource). */
    ok: number;
    /** Whether a publishable key may call it (the embed routes); the others are secret-key routes. */
    embed?: boolean;
    call: (principal: Principal, target: Target) => request.Test;
  }
  const keyIdOf = (principal: Principal) => (principal.kind === 'key' ? principal.keyId : '');
  const routes: Record<string, IdRoute> = {
    'GET items (full listing)': { ok: 200, call: (p, t) => h.get(listPath(t.restaurantId), p) },
    'GET items (incremental sync)': {
      ok: 200,
      call: (p, t) => h.get(listPath(t.restaurantId, `updatedAfter=${new Date(Date.now() - 60_000).toISOString()}`), p),
    },
    'GET items (sync past tombstone retention)': {
      ok: 200,
      call: (p, t) => h.get(listPath(t.restaurantId, `updatedAfter=${new Date(Date.now() - 31 * DAY_MS).toISOString()}`), p),
    },
    'GET menu': { ok: 200, call: (p, t) => h.get(menuPath(t.restaurantId), p) },
    'GET menu (If-None-Match: *)': { ok: 304, call: (p, t) => h.get(menuPath(t.restaurantId), p).set('If-None-Match', '*') },
    'GET item detail': { ok: 200, call: (p, t) => h.get(detailPath(t.itemId), p) },
    'POST item asset-urls': { ok: 200, call: (p, t) => h.post(assetUrlsPath(t.itemId), p).send({ formats: ['glb'] }) },
    'GET embed item': { ok: 200, embed: true, call: (p, t) => h.get(embedPath(t.itemId), p) },
    'GET embed item (refresh with a well-signed view token)': {
      ok: 200,
      embed: true,
      // A token that really is signed for this key and this item: it must not open what the key does not reach.
      call: (p, t) => h.get(embedPath(t.itemId, h.deps.viewTokens.issue(keyIdOf(p), t.itemId, h.deps.now())), p),
    },
  };

  it.each(Object.entries(routes))('%s', async (_name, route) => {
    const mine = await seedDish();
    // Theirs, in every state that would otherwise answer something else: active, lapsed, out of quota.
    const active = await seedDish();
    const lapsed = await seedDish({ subscription_status: 'lapsed' });
    const exhausted = await seedDish({ monthly_quota: 0, overage_budget: 0 });
    const victims = [active, lapsed, exhausted];
    const integrator = await seedIntegrator(h.deps.db, [
      { restaurantId: mine.restaurant.id },
      { restaurantId: active.restaurant.id, status: 'revoked' },
    ]);
    const attackers: Principal[] = [
      keyPrincipalFor(mine.owner, { keyId: newId('key') }),
      keyPrincipalFor(integrator, { keyId: newId('key') }),
      ...(route.embed ? [publishableKey(mine.owner, { keyId: newId('key') })] : []),
    ];
    // The owner reaches it (and its lookup is now cached for the owner): the 404s below are about who asks.
    for (const { restaurant, item, owner } of [active, exhausted]) {
      expect((await route.call(testKey(owner), { restaurantId: restaurant.id, itemId: item.id })).status).toBe(route.ok);
    }
    const involved = [mine, ...victims].map(({ restaurant }) => restaurant.id);
    const before = await countersOf(involved);

    for (const attacker of attackers) {
      const missing = await route.call(attacker, { restaurantId: newId('rst'), itemId: newId('itm') });
      for (const { restaurant, item } of victims) {
        expectAnsweredAsMissing(await route.call(attacker, { restaurantId: restaurant.id, itemId: item.id }), missing);
      }
    }
    expect(await countersOf(involved)).toEqual(before);
  });
});

describe('signed asset URLs', () => {
  /** The path of a signed URL as the catalog receives it, from its four parts. */
  const assetPath = (parts: { exp: string; sig: string; hash: string; file: string }) =>
    `/v1/assets/${parts.exp}/${parts.sig}/${parts.hash}/${parts.file}`;
  const partsOf = (url: string) => {
    const [exp, sig, hash, file] = url.slice(`${PUBLIC_BASE_URL}/v1/assets/`.length).split('/');
    return { exp: exp!, sig: sig!, hash: hash!, file: file! };
  };
  const signedUrl = (storageKey: string) => h.deps.signer.url(storageKey, h.deps.signer.expiry(h.deps.now()));

  /** Refused with `code`, as the JSON envelope: no byte, size or validator of any file goes out. */
  async function expectRefused(path: string, code: 'invalid_signature' | 'expired_signature', headers: Record<string, string> = {}) {
    const res = await h.get(path, publicPrincipal).set(headers);
    expectError(res, 403, code);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    for (const header of ['etag', 'content-range', 'accept-ranges', 'cache-control']) expect(res.headers[header]).toBeUndefined();
    const head = await request(h.app).head(path).set(h.caller.headers(publicPrincipal)).set(headers);
    expect(head.status).toBe(403);
    expect(head.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(head.headers.etag).toBeUndefined();
  }

  it('refuses a signature with any single bit flipped', async () => {
    const { files } = await seedDish();
    const parts = partsOf(signedUrl(files.glb.key));
    await h.get(assetPath(parts), publicPrincipal).expect(200);
    const mac = Buffer.from(parts.sig, 'base64url');
    expect(mac).toHaveLength(32);
    for (const [byte, bit] of [
      [0, 0],
      [13, 5],
      [31, 7],
    ] as const) {
      const flipped = Buffer.from(mac);
      flipped[byte]! ^= 1 << bit;
      await expectRefused(assetPath({ ...parts, sig: flipped.toString('base64url') }), 'invalid_signature');
    }
    await expectRefused(assetPath({ ...parts, sig: parts.sig.slice(0, 22) }), 'invalid_signature');
  });

  it('refuses a URL signed for another file: another format of the dish, the same format of another restaurant’s dish', async () => {
    h.clock.pin(new Date('2026-06-01T12:00:00.250Z'));
    const theirs = await seedDish();
    const mine = await seedDish();
    // Signed in the same second: only the file tells the signatures apart.
    const myGlb = partsOf(signedUrl(mine.files.glb.key));
    const myUsdz = partsOf(signedUrl(mine.files.usdz.key));
    const theirGlb = partsOf(signedUrl(theirs.files.glb.key));
    expect(myGlb.exp).toBe(theirGlb.exp);
    for (const path of [
      assetPath({ ...myGlb, hash: myUsdz.hash, file: myUsdz.file }),
      assetPath({ ...myGlb, file: myUsdz.file }),
      assetPath({ ...myGlb, hash: theirGlb.hash }),
    ]) {
      await expectRefused(path, 'invalid_signature');
    }
    // Every file named above is stored and served under its own signature.
    for (const parts of [myGlb, myUsdz, theirGlb]) await h.get(assetPath(parts), publicPrincipal).expect(200);
  });

  it('refuses a URL signed with another secret, including another purpose’s key of this very catalog', async () => {
    const { files } = await seedDish();
    const genuine = partsOf(signedUrl(files.glb.key));
    const stranger = new AssetSigner({
      secret: 'another-deployment-asset-signing-secret-0123',
      publicBaseUrl: PUBLIC_BASE_URL,
      ttlSeconds: ASSET_URL_TTL_SECONDS,
    });
    const foreign = partsOf(stranger.url(files.glb.key, stranger.expiry(h.deps.now())));
    expect(foreign.sig).not.toBe(genuine.sig);
    await expectRefused(assetPath(foreign), 'invalid_signature');
    const withCursorKey = h.deps.cursorKey.signToString(`${genuine.exp}/${genuine.hash}/${genuine.file}`);
    await expectRefused(assetPath({ ...genuine, sig: withCursorKey }), 'invalid_signature');
    await h.get(assetPath(genuine), publicPrincipal).expect(200);
  });

  it('refuses a URL from the second it expires, for ranges and HEAD alike, and a renewed expiry is a forgery', async () => {
    h.clock.pin(new Date('2026-06-01T12:00:00.000Z'));
    const { files } = await seedDish();
    const parts = partsOf(signedUrl(files.glb.key));
    const path = assetPath(parts);
    const expiresAtMs = Number(parts.exp) * 1000;

    h.clock.pin(new Date(expiresAtMs - 1));
    await h.get(path, publicPrincipal).set('Range', 'bytes=0-3').expect(206);
    h.clock.pin(new Date(expiresAtMs));
    await expectRefused(path, 'expired_signature');
    await expectRefused(path, 'expired_signature', { Range: 'bytes=0-3' });
    await expectRefused(assetPath({ ...parts, exp: String(Number(parts.exp) + ASSET_URL_TTL_SECONDS) }), 'invalid_signature');
  });
});

describe('view tokens: a refresh that counts nothing needs the load’s own token, unexpired', () => {
  /** A live publishable key of its own, a dish with a ready model, and the view token of one counted load. */
  async function loadViewer() {
    const { restaurant, owner, item } = await seedDish();
    const keyId = newId('key');
    const viewer = publishableKey(owner, { keyId });
    const load = await h.get(embedPath(item.id), viewer).expect(200);
    expect(await apiRequestsUsed(h.deps.db, restaurant.id)).toBe(1);
    return { restaurant, owner, item, keyId, viewer, token: load.body.data.viewToken as string };
  }

  it('counts a view again for a token whose expiry was pushed back, one signed with another key, and an edited one', async () => {
    const { restaurant, item, keyId, viewer, token } = await loadViewer();
    const [expires, mac] = token.split('.') as [string, string];
    const flipped = Buffer.from(mac, 'base64url');
    flipped[7]! ^= 0x10;
    const signedWith = (key: HmacKey) => new ViewTokens(key, VIEW_TOKEN_LIFETIME_MS).issue(keyId, item.id, h.deps.now());
    const forged = [
      `${Number(expires) + VIEW_TOKEN_LIFETIME_MS}.${mac}`,
      `${expires}.${flipped.toString('base64url')}`,
      `0${token}`,
      `${token}.${mac}`,
      signedWith(h.deps.cursorKey),
      signedWith(new HmacKey('another-deployment-view-token-secret-0123')),
    ];
    for (const [index, presented] of forged.entries()) {
      expect(presented).not.toBe(token);
      const res = await h.get(embedPath(item.id, presented), viewer).expect(200);
      expect(res.body.data.viewToken).not.toBe(presented);
      expect(await apiRequestsUsed(h.deps.db, restaurant.id)).toBe(index + 2);
    }
    // The genuine token still refreshes for free.
    expect((await h.get(embedPath(item.id, token), viewer).expect(200)).body.data.viewToken).toBe(token);
    expect(await apiRequestsUsed(h.deps.db, restaurant.id)).toBe(forged.length + 1);
  });

  it('refreshes for free until the millisecond the token expires, and counts from then on', async () => {
    h.clock.pin(new Date('2026-06-01T12:00:00.000Z'));
    const { restaurant, item, viewer, token } = await loadViewer();
    h.clock.advance(VIEW_TOKEN_LIFETIME_MS - 1);
    expect((await h.get(embedPath(item.id, token), viewer).expect(200)).body.data.viewToken).toBe(token);
    expect(await apiRequestsUsed(h.deps.db, restaurant.id)).toBe(1);
    h.clock.advance(1);
    const late = await h.get(embedPath(item.id, token), viewer).expect(200);
    expect(late.body.data.viewToken).not.toBe(token);
    expect(await apiRequestsUsed(h.deps.db, restaurant.id)).toBe(2);
    // The new token is a full one again.
    h.clock.advance(VIEW_TOKEN_LIFETIME_MS - 1);
    expect((await h.get(embedPath(item.id, late.body.data.viewToken), viewer).expect(200)).body.data.viewToken).toBe(
      late.body.data.viewToken,
    );
    expect(await apiRequestsUsed(h.deps.db, restaurant.id)).toBe(2);
  });

  it('does not carry over to another dish of the same restaurant, nor to another key of the same owner', async () => {
    const { restaurant, owner, item, viewer, token } = await loadViewer();
    const sibling = await seedItem(h.deps.db, restaurant.id);
    const res = await h.get(embedPath(sibling.id, token), viewer).expect(200);
    expect(res.body.data.itemId).toBe(sibling.id);
    expect(res.body.data.viewToken).not.toBe(token);
    expect(await apiRequestsUsed(h.deps.db, restaurant.id)).toBe(2);
    const otherKey = keyPrincipalFor(owner, { keyId: newId('key') });
    expect((await h.get(embedPath(item.id, token), otherKey).expect(200)).body.data.viewToken).not.toBe(token);
    expect(await apiRequestsUsed(h.deps.db, restaurant.id)).toBe(3);
  });
});

describe('list cursors', () => {
  /** Two restaurants, each with three dishes, reached by one integrator; `mine` is a restaurant key's. */
  async function arrangeListings() {
    const a = await seedRestaurant(h.deps.db);
    const b = await seedRestaurant(h.deps.db);
    const itemsOf = async (restaurantId: string) => [
      await seedItem(h.deps.db, restaurantId),
      await seedItem(h.deps.db, restaurantId),
      await seedItem(h.deps.db, restaurantId),
    ];
    const aItems = await itemsOf(a.restaurant.id);
    const bItems = await itemsOf(b.restaurant.id);
    const integrator = keyPrincipalFor(
      await seedIntegrator(h.deps.db, [{ restaurantId: a.restaurant.id }, { restaurantId: b.restaurant.id }]),
    );
    return { a, b, aItems, bItems, integrator };
  }
  const nextCursor = async (path: string, principal: Principal): Promise<string> => {
    const cursor = (await h.get(path, principal).expect(200)).body.meta.nextCursor;
    expect(cursor).toEqual(expect.any(String));
    return cursor as string;
  };
  const itemIds = (items: { id: string }[]) => items.map((item) => item.id);

  it('refuses a cursor of another listing: the restaurants listing’s on the items listing, and back', async () => {
    const { a, integrator } = await arrangeListings();
    const restaurantsCursor = await nextCursor(`${restaurantsPath}?limit=1`, integrator);
    const itemsCursor = await nextCursor(listPath(a.restaurant.id, 'limit=1'), integrator);
    expectError(
      await h.get(withCursor(listPath(a.restaurant.id, 'limit=1'), restaurantsCursor), integrator),
      400,
      'invalid_cursor',
      'cursor',
    );
    expectError(await h.get(withCursor(`${restaurantsPath}?limit=1`, itemsCursor), integrator), 400, 'invalid_cursor', 'cursor');
    // The listing is bound on its own: this catalog's signature for another listing with the same scope and filters.
    const sameScope = encodeListCursor(
      h.deps.cursorKey,
      { listing: 'restaurants', scope: a.restaurant.id, filters: [null, null] },
      { after: a.restaurant.id },
    );
    expectError(await h.get(withCursor(listPath(a.restaurant.id, 'limit=1'), sameScope), integrator), 400, 'invalid_cursor', 'cursor');
  });

  it('refuses a cursor whose payload was edited, and one signed with another secret, never paging the other restaurant', async () => {
    const { a, b, bItems, integrator } = await arrangeListings();
    const cursor = await nextCursor(listPath(a.restaurant.id, 'limit=1'), integrator);
    const [body, mac] = cursor.split('.') as [string, string];
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    expect(payload.s).toBe(a.restaurant.id);
    const edited = (changes: object) => `${Buffer.from(JSON.stringify({ ...payload, ...changes })).toString('base64url')}.${mac}`;
    const forgedBinding = { listing: 'items', scope: b.restaurant.id, filters: [null, null] };
    const refused = [
      edited({ s: b.restaurant.id }),
      edited({ p: { ...payload.p, id: '' } }),
      encodeListCursor(new HmacKey('another-deployment-cursor-secret-0123456789'), forgedBinding, payload.p),
      `${body}.${mac}.${mac}`,
    ];
    for (const forged of refused) {
      const res = await h.get(withCursor(listPath(b.restaurant.id, 'limit=1'), forged), integrator);
      expectError(res, 400, 'invalid_cursor', 'cursor');
      for (const id of itemIds(bItems)) expect(res.text).not.toContain(id);
    }
    await h.get(withCursor(listPath(a.restaurant.id, 'limit=1'), cursor), integrator).expect(200);
  });

  it("never pages another owner's items with its cursor: refused on one's own listing, 404 on theirs", async () => {
    const theirs = await seedRestaurant(h.deps.db);
    const theirItems = [await seedItem(h.deps.db, theirs.restaurant.id), await seedItem(h.deps.db, theirs.restaurant.id)];
    const mine = await seedRestaurant(h.deps.db);
    await seedItem(h.deps.db, mine.restaurant.id);
    await seedItem(h.deps.db, mine.restaurant.id);
    const cursor = await nextCursor(listPath(theirs.restaurant.id, 'limit=1'), testKey(theirs.owner));
    const me = testKey(mine.owner);

    const onMine = await h.get(withCursor(listPath(mine.restaurant.id, 'limit=1'), cursor), me);
    expectError(onMine, 400, 'invalid_cursor', 'cursor');
    const onTheirs = await h.get(withCursor(listPath(theirs.restaurant.id, 'limit=1'), cursor), me);
    expectAnsweredAsMissing(onTheirs, await h.get(withCursor(listPath(newId('rst'), 'limit=1'), cursor), me));
    for (const res of [onMine, onTheirs]) for (const id of itemIds(theirItems)) expect(res.text).not.toContain(id);
  });

  it('refuses an empty cursor and a repeated one as 400 invalid_request naming cursor', async () => {
    const { a, integrator } = await arrangeListings();
    const cursor = encodeURIComponent(await nextCursor(listPath(a.restaurant.id, 'limit=1'), integrator));
    for (const path of [listPath(a.restaurant.id, 'limit=1'), `${restaurantsPath}?limit=1`]) {
      expectError(await h.get(`${path}&cursor=`, integrator), 400, 'invalid_request', 'cursor');
      expectError(await h.get(`${path}&cursor=${cursor}&cursor=${cursor}`, integrator), 400, 'invalid_request', 'cursor');
    }
  });
});

describe('publishable keys see published dishes only', () => {
  it('answer a draft, an archived and a deleted dish with the whole error of a missing one, live and test alike, counting nothing', async () => {
    const { restaurant, owner } = await seedRestaurant(h.deps.db);
    const files = await storeModelFiles(h.deps.storage);
    const draft = await seedItem(h.deps.db, restaurant.id, { status: 'draft', ...files.columns });
    const archived = await seedItem(h.deps.db, restaurant.id, { status: 'archived', ...files.columns });
    const deleted = await deleteItem(h.deps.db, (await seedItem(h.deps.db, restaurant.id, files.columns)).id);
    for (const environment of ['live', 'test'] as const) {
      const viewer = publishableKey(owner, { environment, keyId: newId('key') });
      const missing = await h.get(embedPath(newId('itm')), viewer);
      for (const item of [draft, archived, deleted]) expectAnsweredAsMissing(await h.get(embedPath(item.id), viewer), missing);
    }
    // The owner's secret key reaches the unpublished ones: what hides them is the key type.
    for (const item of [draft, archived]) await h.get(embedPath(item.id), testKey(owner)).expect(200);
    expect(await usageCounters(h.deps.db, restaurant.id)).toEqual([]);
  });

  it('stop showing a dish withdrawn after the viewer loaded it, its view token notwithstanding', async () => {
    const { restaurant, owner, item } = await seedDish();
    const viewer = publishableKey(owner, { keyId: newId('key') });
    const { viewToken } = (await h.get(embedPath(item.id), viewer).expect(200)).body.data;
    await h.get(embedPath(item.id, viewToken), viewer).expect(200);
    expect(await apiRequestsUsed(h.deps.db, restaurant.id)).toBe(1);

    await touchItem(h.deps.db, item.id, { status: 'archived' });
    await accessInvalidations.publish(h.deps.redis, h.deps.redisPrefix, { itemId: item.id });
    await expect.poll(async () => (await h.get(embedPath(item.id, viewToken), viewer)).status).toBe(404);
    expectAnsweredAsMissing(await h.get(embedPath(item.id, viewToken), viewer), await h.get(embedPath(newId('itm')), viewer));
    expect(await apiRequestsUsed(h.deps.db, restaurant.id)).toBe(1);
  });
});

describe('restaurant text is plain text', () => {
  const hostile = {
    restaurant: '<script>alert("restaurant")</script> & Co',
    section: '</h2><iframe src="https://evil.example">',
    name: '"><img src=x onerror=alert(1)>',
    description: "<b onmouseover='alert(2)'>Chef&#39;s</b> &amp; <!-- -->",
    allergen: '<svg onload=alert(3)>',
  };

  it('comes back from every API route verbatim, as JSON strings', async () => {
    const { restaurant, owner } = await seedRestaurant(h.deps.db, { name: hostile.restaurant });
    const section = await seedSection(h.deps.db, restaurant.id, hostile.section, 1);
    const item = await seedItem(h.deps.db, restaurant.id, {
      name: hostile.name,
      slug: hostile.name,
      description: hostile.description,
      allergens: [hostile.allergen],
      section_id: section.id,
    });
    const key = testKey(owner);
    const verbatim = {
      name: hostile.name,
      slug: hostile.name,
      description: hostile.description,
      allergens: [hostile.allergen],
    };
    const json = async (test: request.Test) => {
      const res = await test.expect(200);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      return res.body;
    };

    expect((await json(h.get(restaurantsPath, key))).data[0].name).toBe(hostile.restaurant);
    expect((await json(h.get(listPath(restaurant.id), key))).data[0]).toMatchObject(verbatim);
    expect((await json(h.get(detailPath(item.id), key))).data).toMatchObject(verbatim);
    const menu = (await json(h.get(menuPath(restaurant.id), key))).data;
    expect(menu.restaurant.name).toBe(hostile.restaurant);
    expect(menu.sections[0].name).toBe(hostile.section);
    expect(menu.sections[0].items[0]).toMatchObject(verbatim);
    expect((await json(h.get(embedPath(item.id), publishableKey(owner, { environment: 'test' })))).data.name).toBe(hostile.name);
  });

  it('is escaped on the public menu page, whose only scripts are the two embeds', async () => {
    const { restaurant } = await seedRestaurant(h.deps.db, { name: hostile.restaurant, house_notes: hostile.description });
    const section = await seedSection(h.deps.db, restaurant.id, hostile.section, 1);
    await seedItem(h.deps.db, restaurant.id, {
      name: hostile.name,
      slug: hostile.name,
      description: '</script><script>alert(4)</script>',
      allergens: [hostile.allergen],
      section_id: section.id,
    });
    const html = (await h.get(`/menu/${restaurant.id}`, publicPrincipal).expect(200)).text;
    expect(html).toContain('<h1>&lt;script&gt;alert(&quot;restaurant&quot;)&lt;/script&gt; &amp; Co</h1>');
    expect(html).toContain('&lt;/script&gt;&lt;script&gt;alert(4)&lt;/script&gt;');
    expect(html.match(/<script\b/g)).toEqual(['<script', '<script']);
    expect(html.match(/<script\b[^>]*>/g)).toEqual([
      `<script src="${PUBLIC_BASE_URL}/embed/v1.js" async>`,
      `<script src="${PUBLIC_BASE_URL}/embed/concierge.v1.js" async>`,
    ]);
    expect(html).toContain('<h2>&lt;/h2&gt;&lt;iframe src=&quot;https://evil.example&quot;&gt;</h2>');
    for (const tag of ['<iframe', '<img', '<svg', '<b ', '<!--']) expect(html).not.toContain(tag);
  });
});

describe('a restaurant id in the path that is not one', () => {
  it.each(['%00', 'rst_has-dash', "rst_1'or'1'='1"])('(%s) is answered as a missing restaurant, for an integrator key too', async (id) => {
    const { restaurant } = await seedRestaurant(h.deps.db);
    const integrator = keyPrincipalFor(await seedIntegrator(h.deps.db, [{ restaurantId: restaurant.id }]));
    for (const path of [listPath, menuPath]) {
      expectAnsweredAsMissing(await h.get(path(id), integrator), await h.get(path(newId('rst')), integrator));
    }
    expectError(await h.get(`/menu/${id}`, publicPrincipal), 404, 'not_found');
  });
});
