import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restaurantWithKey, startStack, type Stack } from './stack.js';

// A sync client written from the spec alone (2.5, 4.2): follow meta.nextCursor until null, apply items
// and tombstones, feed meta.syncWindowEnd back as updatedAfter. Writers change the menu concurrently
// through console the whole time; at the end the client's copy must equal the database.

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.stop());

interface Entry {
  id: string;
  updatedAt: string;
  deleted?: true;
  priceCents?: number;
  name?: string;
  status?: string;
}

async function syncOnce(
  gatewayUrl: string,
  auth: Record<string, string>,
  restaurantId: string,
  copy: Map<string, Entry>,
  since: string | null,
  delivered: Map<string, number>,
) {
  let cursor: string | null = null;
  let windowEnd: string;
  do {
    const query: Record<string, string> = { limit: '7' };
    if (since) query.updatedAfter = since;
    if (cursor) query.cursor = cursor;
    const res = await request(gatewayUrl).get(`/v1/partner/restaurants/${restaurantId}/items`).query(query).set(auth);
    if (res.status !== 200) throw new Error(`sync failed: ${res.status} ${JSON.stringify(res.body)}`);
    if (res.body.meta.fullResyncRequired) throw new Error('unexpected full resync');
    for (const entry of res.body.data as Entry[]) {
      const version = `${entry.id}@${entry.updatedAt}`;
      delivered.set(version, (delivered.get(version) ?? 0) + 1);
      if (entry.deleted) copy.delete(entry.id);
      else copy.set(entry.id, entry);
    }
    cursor = res.body.meta.nextCursor;
    windowEnd = res.body.meta.syncWindowEnd;
  } while (cursor);
  return windowEnd;
}

describe('randomized concurrent sync', () => {
  it('converges to the database while writers create, update and delete concurrently', async () => {
    const { restaurant, auth } = await restaurantWithKey(stack, { rateLimitPerMin: 100_000 });
    const live: string[] = [];
    let seed = 20261122;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    let writing = true;

    const writer = async (id: number) => {
      let n = 0;
      while (writing) {
        const roll = random();
        if (roll < 0.45 || live.length < 3) {
          const item = await stack.console.createItem(restaurant.id, {
            name: `W${id} dish ${n++}`,
            priceCents: Math.floor(random() * 5000),
          });
          live.push(item.id);
        } else if (roll < 0.65) {
          const target = live[Math.floor(random() * live.length)]!;
          await stack.console.updateItem(target, { priceCents: Math.floor(random() * 5000) }).catch(() => {});
        } else if (roll < 0.8) {
          // Renamed and moved between statuses: a full copy keeps drafts and archived items too.
          const target = live[Math.floor(random() * live.length)]!;
          const status = (['draft', 'published', 'archived'] as const)[Math.floor(random() * 3)];
          await stack.console.updateItem(target, { name: `W${id} renamed ${n++}`, status }).catch(() => {});
        } else {
          const index = Math.floor(random() * live.length);
          const [target] = live.splice(index, 1);
          await stack.console.deleteItem(target!).catch(() => {});
        }
      }
    };

    const copy = new Map<string, Entry>();
    const delivered = new Map<string, number>();
    const writers = [writer(1), writer(2), writer(3)];
    let since: string | null = null;
    const deadline = Date.now() + 4000;
    let polls = 0;
    while (Date.now() < deadline) {
      since = await syncOnce(stack.gatewayUrl, auth, restaurant.id, copy, since, delivered);
      polls++;
    }
    writing = false;
    await Promise.all(writers);
    await syncOnce(stack.gatewayUrl, auth, restaurant.id, copy, since, delivered);

    const rows = await stack.db
      .selectFrom('items')
      .select(['id', 'name', 'status', 'price_cents', 'updated_at'])
      .where('restaurant_id', '=', restaurant.id)
      .where('deleted_at', 'is', null)
      .execute();
    expect(polls).toBeGreaterThan(3);
    expect(rows.length).toBeGreaterThan(10);
    const version = (entry: { name?: string; status?: string; priceCents?: number; updatedAt: string }) => ({
      name: entry.name,
      status: entry.status,
      priceCents: entry.priceCents,
      updatedAt: entry.updatedAt,
    });
    expect(new Map([...copy].map(([id, entry]) => [id, version(entry)]))).toEqual(
      new Map(
        rows.map((row) => [
          row.id,
          version({ name: row.name, status: row.status, priceCents: row.price_cents, updatedAt: row.updated_at.toISOString() }),
        ]),
      ),
    );
    // Overlap-free: no version of an item (or tombstone) came in two windows or on two pages.
    expect([...delivered].filter(([, count]) => count > 1)).toEqual([]);
  }, 30_000);
});
