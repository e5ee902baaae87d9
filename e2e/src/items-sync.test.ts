import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZItem, ZItemListMeta, ZTombstone, zList } from '@partner/contracts';
import { lockForItemWrite, writeTimestamp } from '@partner/db';
import { encodeCursor, HmacKey } from '@partner/signing';
import { z } from 'zod';
import { expectError } from './expect-error.js';
import { grantAccess, holdItemWrite, integratorWithKey, restaurantWithKey, startStack, type Stack } from './stack.js';

const ZItemPage = zList(z.union([ZItem, ZTombstone]), ZItemListMeta);

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.stop());

async function kitchen(itemCount = 0) {
  const owner = await restaurantWithKey(stack, { rateLimitPerMin: 100_000 });
  const items = [];
  for (let i = 0; i < itemCount; i++) {
    items.push(
      await stack.console.createItem(owner.restaurant.id, {
        name: `Dish ${i}`,
        priceCents: 100 + i,
        status: i % 3 === 0 ? 'draft' : 'published',
      }),
    );
  }
  return { ...owner, items };
}

const list = (auth: Record<string, string>, restaurantId: string, query: Record<string, string> = {}) =>
  request(stack.gatewayUrl).get(`/v1/partner/restaurants/${restaurantId}/items`).query(query).set(auth);

async function listAll(auth: Record<string, string>, restaurantId: string, query: Record<string, string> = {}) {
  const data: z.infer<typeof ZItemPage>['data'] = [];
  let cursor: string | null = null;
  let meta: z.infer<typeof ZItemPage>['meta'];
  do {
    const res = await list(auth, restaurantId, { ...query, ...(cursor ? { cursor } : {}) });
    expect(res.status).toBe(200);
    const page = ZItemPage.parse(res.body);
    data.push(...page.data);
    meta = page.meta;
    cursor = page.meta.nextCursor;
  } while (cursor);
  return { data, meta: meta! };
}

describe('item listing', () => {
  it('lists every live item in (updatedAt, id) order, page by page, inside one fixed window', async () => {
    const { restaurant, auth, items } = await kitchen(7);
    const { data, meta } = await listAll(auth, restaurant.id, { limit: '3' });
    expect(data.map((item) => item.id).sort()).toEqual(items.map((item) => item.id).sort());
    const keys = data.map((item) => `${item.updatedAt}|${item.id}`);
    expect(keys).toEqual([...keys].sort());
    expect(meta.syncWindowStart).toBeNull();
    expect(meta.fullResyncRequired).toBe(false);
    expect(data.every((item) => item.updatedAt <= meta.syncWindowEnd)).toBe(true);
  });

  it('feeds syncWindowEnd back as updatedAfter: changes and deletions only, each once', async () => {
    const { restaurant, auth, items } = await kitchen(4);
    const first = await listAll(auth, restaurant.id);
    await stack.console.updateItem(items[0]!.id, { priceCents: 999 });
    await stack.console.deleteItem(items[1]!.id);
    const created = await stack.console.createItem(restaurant.id, { name: 'New dish', priceCents: 500 });

    const second = await listAll(auth, restaurant.id, { updatedAfter: first.meta.syncWindowEnd });
    expect(second.meta.syncWindowStart).toBe(first.meta.syncWindowEnd);
    const byId = new Map(second.data.map((entry) => [entry.id, entry]));
    expect(byId.size).toBe(3);
    expect(byId.get(items[0]!.id)).toMatchObject({ priceCents: 999 });
    expect(byId.get(items[1]!.id)).toEqual({ id: items[1]!.id, object: 'item', deleted: true, updatedAt: expect.any(String) });
    expect(byId.get(created.id)).toMatchObject({ name: 'New dish' });

    const third = await listAll(auth, restaurant.id, { updatedAfter: second.meta.syncWindowEnd });
    expect(third.data).toEqual([]);
    expect(third.meta.syncWindowEnd >= second.meta.syncWindowEnd).toBe(true);
  });

  it('filters a full listing by status', async () => {
    const { restaurant, auth, items } = await kitchen(6);
    const drafts = await listAll(auth, restaurant.id, { status: 'draft' });
    expect(drafts.data.map((item) => item.id).sort()).toEqual(
      items
        .filter((item) => item.status === 'draft')
        .map((item) => item.id)
        .sort(),
    );
  });

  it('a write transaction that began before a poll and commits after it shows up in the next poll', async () => {
    const { restaurant, auth, items } = await kitchen(2);
    const before = await listAll(auth, restaurant.id);

    // The writer takes the restaurant's sync lock and stamps its row, then holds the transaction open.
    const writer = await holdItemWrite(stack, restaurant.id, items[0]!.id, 4242);

    // A poll while the write is in flight: it waits for the writer rather than close a window over it.
    const poll = list(auth, restaurant.id, { updatedAfter: before.meta.syncWindowEnd }).then((res) => res);
    await new Promise((resolve) => setTimeout(resolve, 150));
    await writer.commit();
    const during = ZItemPage.parse((await poll).body);
    const next = await listAll(auth, restaurant.id, { updatedAfter: during.meta.syncWindowEnd });
    const seen = [...during.data, ...next.data].filter((entry) => entry.id === items[0]!.id);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ priceCents: 4242 });
  });

  it('a transaction that began before a poll but writes after it lands in the next window, never a past one', async () => {
    const { restaurant, auth, items } = await kitchen(1);
    const before = await listAll(auth, restaurant.id);
    let go: () => void = () => {};
    const pollDone = new Promise<void>((resolve) => (go = resolve));
    const writer = stack.db.transaction().execute(async (tx) => {
      await tx.selectFrom('items').select('id').where('id', '=', items[0]!.id).execute(); // transaction open, nothing written
      await pollDone;
      await lockForItemWrite(tx, restaurant.id);
      await tx.updateTable('items').set({ price_cents: 77, updated_at: writeTimestamp() }).where('id', '=', items[0]!.id).execute();
    });
    const poll = await listAll(auth, restaurant.id, { updatedAfter: before.meta.syncWindowEnd });
    expect(poll.data).toEqual([]);
    go();
    await writer;
    const next = await listAll(auth, restaurant.id, { updatedAfter: poll.meta.syncWindowEnd });
    expect(next.data).toEqual([expect.objectContaining({ id: items[0]!.id, priceCents: 77 })]);
  });

  it('asks for a full resync when updatedAfter is older than the tombstone retention', async () => {
    const { restaurant, auth } = await kitchen(1);
    const res = await list(auth, restaurant.id, { updatedAfter: new Date(Date.now() - 31 * 24 * 3600 * 1000).toISOString() });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
    expect(res.body.meta).toMatchObject({ fullResyncRequired: true, nextCursor: null });
  });

  it('timestamps survive a round trip through JSON exactly', async () => {
    const { restaurant, auth } = await kitchen(3);
    const { data } = await listAll(auth, restaurant.id);
    for (const item of data) {
      const row = await stack.db.selectFrom('items').select('updated_at').where('id', '=', item.id).executeTakeFirstOrThrow();
      expect(row.updated_at.toISOString()).toBe(item.updatedAt);
    }
  });

  it('an integrator reads a granted restaurant and not another', async () => {
    const { restaurant } = await kitchen(2);
    const other = await kitchen(1);
    const integrator = await integratorWithKey(stack);
    await grantAccess(stack, integrator.org.id, restaurant.id);
    expect((await list(integrator.auth, restaurant.id)).body.data).toHaveLength(2);
    const refused = await list(integrator.auth, other.restaurant.id);
    expectError(refused, 404, 'not_found');
  });
});

describe('item listing: bad input', () => {
  let auth: Record<string, string>;
  let restaurantId: string;
  beforeAll(async () => {
    const owner = await kitchen(3);
    auth = owner.auth;
    restaurantId = owner.restaurant.id;
  });

  it.each([['0'], ['-5'], ['ten'], ['2.5'], ['1001'], ['1e3'], ['99999999999999999999']])('limit=%s is 400 naming limit', async (limit) => {
    const res = await list(auth, restaurantId, { limit });
    expectError(res, 400, 'invalid_request');
    expect(res.body.error.param).toBe('limit');
  });

  it.each([['yesterday'], ['2026-13-01T00:00:00Z'], ['2026-01-01'], ['2026-01-01T00:00:00'], ['1700000000'], ['']])(
    'updatedAfter=%s is 400 naming updatedAfter',
    async (updatedAfter) => {
      const res = await list(auth, restaurantId, { updatedAfter });
      expectError(res, 400, 'invalid_request');
      expect(res.body.error.param).toBe('updatedAfter');
    },
  );

  it('an updatedAfter far in the future is 400', async () => {
    const res = await list(auth, restaurantId, { updatedAfter: '2099-01-01T00:00:00Z' });
    expectError(res, 400, 'invalid_request');
  });

  it.each([['deleted'], ['PUBLISHED'], ['all'], ['']])('status=%s is 400 naming status', async (status) => {
    const res = await list(auth, restaurantId, { status });
    expectError(res, 400, 'invalid_request');
    expect(res.body.error.param).toBe('status');
  });

  it('status with updatedAfter is 400 naming both', async () => {
    const res = await list(auth, restaurantId, { status: 'published', updatedAfter: new Date().toISOString() });
    expectError(res, 400, 'invalid_request');
    expect(res.body.error.message).toContain('status');
    expect(res.body.error.message).toContain('updatedAfter');
  });

  it('a cursor reused with other filters is 400 cursor_filter_mismatch', async () => {
    const first = await list(auth, restaurantId, { limit: '1', status: 'published' });
    const cursor = first.body.meta.nextCursor as string;
    expect(cursor).toBeTruthy();
    expectError(await list(auth, restaurantId, { cursor, status: 'draft' }), 400, 'cursor_filter_mismatch');
    expectError(await list(auth, restaurantId, { cursor }), 400, 'cursor_filter_mismatch');
    expect((await list(auth, restaurantId, { cursor, status: 'published' })).status).toBe(200);
  });

  it('garbage, tampered and cross-restaurant cursors are 400 invalid_cursor', async () => {
    const other = await kitchen(3);
    const foreign = (await list(other.auth, other.restaurant.id, { limit: '1' })).body.meta.nextCursor as string;
    expectError(await list(auth, restaurantId, { cursor: foreign }), 400, 'invalid_cursor');
    expectError(await list(auth, restaurantId, { cursor: 'garbage' }), 400, 'invalid_cursor');
    const own = (await list(auth, restaurantId, { limit: '1' })).body.meta.nextCursor as string;
    expectError(await list(auth, restaurantId, { cursor: `${own.slice(0, -2)}xx` }), 400, 'invalid_cursor');
    // Signed with another secret: a cursor from another deployment.
    const alien = encodeCursor(new HmacKey('another-secret-of-enough-length-000000'), { l: 'items', r: restaurantId });
    expectError(await list(auth, restaurantId, { cursor: alien }), 400, 'invalid_cursor');
  });

  it.each([['rst_doesnotexist'], ['not-an-id'], ['%E2%9C%93'], ['x'.repeat(300)]])('restaurant id %s is 404', async (id) => {
    expectError(await request(stack.gatewayUrl).get(`/v1/partner/restaurants/${id}/items`).set(auth), 404, 'not_found');
  });
});
