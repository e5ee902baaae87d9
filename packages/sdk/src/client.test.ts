import { describe, expect, it } from 'vitest';
import { PartnerClient } from './client.js';
import { apiError, fakeClock, json, scriptedFetch } from './testing/fake-fetch.js';

const item = (id: string, updatedAt = '2026-01-01T00:00:00.000Z') => ({ id, name: id, updatedAt });
const tombstone = (id: string) => ({ id, object: 'item', deleted: true, updatedAt: '2026-01-01T00:00:01.000Z' });
const meta = (nextCursor: string | null, more: Record<string, unknown> = {}) => ({
  nextCursor,
  syncWindowStart: null,
  syncWindowEnd: '2026-01-01T00:00:05.000Z',
  fullResyncRequired: false,
  ...more,
});

function client(fetch: ReturnType<typeof scriptedFetch>['fetch'], clock = fakeClock().clock) {
  return new PartnerClient({ apiKey: 'svc_sk_test_x', baseUrl: 'http://api.test', fetch, clock, random: () => 0 });
}

describe('construction', () => {
  it('refuses to guess where the API is: a missing or malformed baseUrl throws before any request', () => {
    const { fetch, sent } = scriptedFetch();
    for (const baseUrl of [undefined, '', 'api.example.com']) {
      expect(() => new PartnerClient({ apiKey: 'svc_sk_test_x', baseUrl: baseUrl as unknown as string, fetch })).toThrow(/baseUrl/);
    }
    expect(sent).toHaveLength(0);
  });

  it('takes the base URL with or without /v1', async () => {
    for (const baseUrl of ['http://api.test', 'http://api.test/', 'http://api.test/v1', 'http://api.test/v1/']) {
      const { fetch, sent } = scriptedFetch(json(200, { data: { id: 'key_1' } }));
      await new PartnerClient({ apiKey: 'svc_sk_test_x', baseUrl, fetch, random: () => 0 }).me();
      expect(sent[0]!.url).toBe('http://api.test/v1/partner/me');
    }
  });
});

describe('pagination', () => {
  it('follows meta.nextCursor until null, lazily, one page at a time', async () => {
    const { fetch, sent } = scriptedFetch(
      json(200, { data: [{ id: 'rst_1' }, { id: 'rst_2' }], meta: { nextCursor: 'c1' } }),
      json(200, { data: [{ id: 'rst_3' }], meta: { nextCursor: null } }),
    );
    const listing = client(fetch).restaurants.list({ limit: 2 });
    expect(sent).toHaveLength(0);
    const ids = [];
    for await (const restaurant of listing) ids.push(restaurant.id);
    expect(ids).toEqual(['rst_1', 'rst_2', 'rst_3']);
    expect(sent.map((request) => request.url)).toEqual([
      'http://api.test/v1/partner/restaurants?limit=2',
      'http://api.test/v1/partner/restaurants?limit=2&cursor=c1',
    ]);
  });

  it('fetches no further page after a break, and repeats the filters with every cursor', async () => {
    const { fetch, sent } = scriptedFetch(json(200, { data: [item('itm_1'), item('itm_2')], meta: meta('c1') }));
    for await (const entry of client(fetch).items.list('rst 1', { status: 'published' })) {
      expect(entry.id).toBe('itm_1');
      break;
    }
    expect(sent.map((request) => request.url)).toEqual(['http://api.test/v1/partner/restaurants/rst%201/items?status=published']);
  });
});

describe('sync', () => {
  it('yields changes and tombstones page by page, then keeps the window for the next pass', async () => {
    const { fetch, sent } = scriptedFetch(
      json(200, { data: [item('itm_1'), item('itm_2')], meta: meta('c1') }),
      json(200, { data: [item('itm_3')], meta: meta(null) }),
      json(200, { data: [tombstone('itm_2'), item('itm_1')], meta: meta(null, { syncWindowEnd: '2026-01-01T00:00:09.000Z' }) }),
    );
    const sync = client(fetch).items.sync('rst_1', { limit: 2 });
    const first = [];
    for await (const change of sync) first.push(change.type === 'upsert' ? change.item.id : change.type);
    expect(first).toEqual(['itm_1', 'itm_2', 'itm_3']);
    expect(sync.state).toEqual({ updatedAfter: '2026-01-01T00:00:05.000Z', cursor: null });

    const second = [];
    for await (const change of sync) second.push(change);
    expect(second).toEqual([
      { type: 'delete', id: 'itm_2', tombstone: tombstone('itm_2') },
      { type: 'upsert', item: item('itm_1') },
    ]);
    expect(sync.updatedAfter).toBe('2026-01-01T00:00:09.000Z');
    expect(sent.map((request) => new URL(request.url).search)).toEqual([
      '?limit=2',
      '?limit=2&cursor=c1',
      '?limit=2&updatedAfter=2026-01-01T00%3A00%3A05.000Z',
    ]);
  });

  it('moves past a page only once it was consumed: a pass left early resumes at that page', async () => {
    const { fetch, sent } = scriptedFetch(
      json(200, { data: [item('itm_1')], meta: meta('c1') }),
      json(200, { data: [item('itm_2'), item('itm_3')], meta: meta('c2') }),
      json(200, { data: [item('itm_2'), item('itm_3')], meta: meta('c2') }),
      json(200, { data: [], meta: meta(null) }),
    );
    const sync = client(fetch).items.sync('rst_1', { updatedAfter: '2026-01-01T00:00:00.000Z' });
    for await (const change of sync) if (change.type === 'upsert' && change.item.id === 'itm_2') break;
    expect(sync.state).toEqual({ updatedAfter: '2026-01-01T00:00:00.000Z', cursor: 'c1' });
    const resumed = [];
    for await (const change of sync) resumed.push(change.type === 'upsert' && change.item.id);
    expect(resumed).toEqual(['itm_2', 'itm_3']);
    expect(new URL(sent[2]!.url).searchParams.get('cursor')).toBe('c1');
    expect(new URL(sent[2]!.url).searchParams.get('updatedAfter')).toBe('2026-01-01T00:00:00.000Z');
  });

  it('throws when a cursor the API gave in this pass is refused: no restart loop', async () => {
    const { fetch, sent } = scriptedFetch(json(200, { data: [item('itm_1')], meta: meta('c1') }), apiError(400, 'invalid_cursor'));
    const sync = client(fetch).items.sync('rst_1', { updatedAfter: '2026-01-01T00:00:00.000Z' });
    await expect(
      (async () => {
        for await (const change of sync) void change;
      })(),
    ).rejects.toMatchObject({ code: 'invalid_cursor' });
    expect(sent).toHaveLength(2);
  });

  it('starts the pass over from updatedAfter when a stored cursor is refused, and throws other errors', async () => {
    const { fetch, sent } = scriptedFetch(
      apiError(400, 'invalid_cursor'),
      json(200, { data: [item('itm_1')], meta: meta(null) }),
      apiError(400, 'invalid_request'),
    );
    const sync = client(fetch).items.sync('rst_1', { updatedAfter: '2026-01-01T00:00:00.000Z', cursor: 'from-an-old-key' });
    const changes = [];
    for await (const change of sync) changes.push(change.type === 'upsert' && change.item.id);
    expect(changes).toEqual(['itm_1']);
    expect(new URL(sent[1]!.url).searchParams.has('cursor')).toBe(false);
    expect(new URL(sent[1]!.url).searchParams.get('updatedAfter')).toBe('2026-01-01T00:00:00.000Z');
    await expect(
      (async () => {
        for await (const change of sync) void change;
      })(),
    ).rejects.toMatchObject({ code: 'invalid_request' });
  });

  it('on fullResyncRequired says reset, then lists everything from scratch', async () => {
    const { fetch, sent } = scriptedFetch(
      json(200, { data: [], meta: meta(null, { fullResyncRequired: true, syncWindowStart: '2025-01-01T00:00:00.000Z' }) }),
      json(200, { data: [item('itm_1')], meta: meta(null) }),
    );
    const sync = client(fetch).items.sync('rst_1', { updatedAfter: '2025-01-01T00:00:00.000Z' });
    const changes = [];
    for await (const change of sync) changes.push(change.type);
    expect(changes).toEqual(['reset', 'upsert']);
    expect(new URL(sent[1]!.url).searchParams.has('updatedAfter')).toBe(false);
    expect(sync.updatedAfter).toBe('2026-01-01T00:00:05.000Z');
  });

  it('says reset again if the loop was left at the reset', async () => {
    const stale = () => json(200, { data: [], meta: meta(null, { fullResyncRequired: true }) });
    const { fetch } = scriptedFetch(stale, stale);
    const sync = client(fetch).items.sync('rst_1', { updatedAfter: '2025-01-01T00:00:00.000Z' });
    for await (const change of sync) if (change.type === 'reset') break;
    for await (const change of sync) {
      expect(change.type).toBe('reset');
      break;
    }
    expect(sync.updatedAfter).toBe('2025-01-01T00:00:00.000Z');
  });
});

describe('menu', () => {
  it('asks with the ETag and returns the cached menu on 304', async () => {
    const menu = { restaurant: { id: 'rst_1' }, sections: [], unsectionedItems: [], updatedAt: '2026-01-01T00:00:00.000Z' };
    const { fetch, sent } = scriptedFetch(
      json(200, { data: menu }, { etag: '"v1"' }),
      new Response(null, { status: 304, headers: { etag: '"v1"' } }),
      json(200, { data: { ...menu, sections: [{ id: 'sec_1' }] } }, { etag: '"v2"' }),
    );
    const menus = client(fetch).menus;
    const first = await menus.get('rst_1');
    expect(await menus.get('rst_1')).toBe(first);
    expect((await menus.get('rst_1')).sections).toEqual([{ id: 'sec_1' }]);
    expect(sent.map((request) => request.headers['if-none-match'])).toEqual([undefined, '"v1"', '"v1"']);
  });
});

describe('asset URLs', () => {
  it('hands out cached URLs while they have the margin to live, fresh ones after', async () => {
    const { clock } = fakeClock(Date.parse('2026-01-01T00:00:00.000Z'));
    const urls = (n: number, expiresAt: string) =>
      json(200, { data: { itemId: 'itm_1', glbUrl: `glb${n}`, usdzUrl: `usdz${n}`, thumbnailUrl: null, expiresAt } });
    const { fetch, sent } = scriptedFetch(
      urls(1, '2026-01-01T00:15:00.000Z'),
      urls(2, '2026-01-01T00:28:00.000Z'),
      urls(3, '2026-01-01T00:28:00.000Z'),
    );
    const assets = client(fetch, clock).assets;
    expect((await assets.get('itm_1')).glbUrl).toBe('glb1');
    clock.ms = Date.parse('2026-01-01T00:12:59.000Z');
    expect((await assets.get('itm_1')).glbUrl).toBe('glb1');
    clock.ms = Date.parse('2026-01-01T00:13:01.000Z');
    expect((await assets.get('itm_1')).glbUrl).toBe('glb2');
    expect((await assets.get('itm_1', { formats: ['glb'] })).glbUrl).toBe('glb3');
    expect(sent.map((request) => [request.method, request.url, request.body])).toEqual([
      ['POST', 'http://api.test/v1/partner/items/itm_1/asset-urls', {}],
      ['POST', 'http://api.test/v1/partner/items/itm_1/asset-urls', {}],
      ['POST', 'http://api.test/v1/partner/items/itm_1/asset-urls', { formats: ['glb'] }],
    ]);
  });
});
