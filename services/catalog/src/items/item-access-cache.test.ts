import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertItem, insertRestaurant, type TestDatabase, updateRestaurant, useTestDatabase } from '@partner/testing';
import type { Db } from '@partner/db';
import { accessInvalidations, connectRedis, createLogger, type RedisClient, subscribeToInvalidations } from '@partner/http';
import { ItemAccessCache } from './item-access-cache.js';

let database: TestDatabase;
let publisher: RedisClient;
let subscriber: RedisClient;
const prefix = `iac${randomBytes(4).toString('hex')}:`;
const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

beforeAll(async () => {
  database = await useTestDatabase();
  publisher = await connectRedis(redisUrl, () => {});
  subscriber = await connectRedis(redisUrl, () => {});
});
afterAll(async () => {
  await Promise.all([publisher.quit(), subscriber.quit()]);
  await database.drop();
});

/** The database, counting the queries sent through it. */
function counting(db: Db) {
  const counter = { queries: 0 };
  const counted = db.withPlugin({
    transformQuery: (args) => {
      counter.queries++;
      return args.node;
    },
    transformResult: async (args) => args.result,
  });
  return { counted, counter };
}

async function seedItem(suffix: string) {
  const restaurant = await insertRestaurant(database.db, {
    id: `rst_iac${suffix}${randomBytes(6).toString('hex')}`,
    name: 'Cache Bistro',
    slug: `iac-${suffix}-${randomBytes(4).toString('hex')}`,
    currency: 'EUR',
  });
  const item = await insertItem(database.db, {
    id: `itm_iac${suffix}${randomBytes(6).toString('hex')}`,
    restaurant_id: restaurant.id,
    section_id: null,
    slug: 'soup',
    name: 'Soup',
    description: null,
    price_cents: 700,
    status: 'published',
    dietary_tags: [],
    allergens: [],
  });
  return { restaurant, item, owner: { kind: 'restaurant' as const, id: restaurant.id } };
}

const until = async (condition: () => Promise<boolean>) => {
  for (let i = 0; i < 100 && !(await condition()); i++) await new Promise((resolve) => setTimeout(resolve, 20));
};

describe('ItemAccessCache', () => {
  it('answers repeated lookups from memory and never caches a miss or another owner', async () => {
    const { counted, counter } = counting(database.db);
    const cache = new ItemAccessCache(counted, { ttlMs: 60_000 });
    const { item, owner } = await seedItem('a');
    expect((await cache.find(owner, item.id))?.item.name).toBe('Soup');
    expect((await cache.find(owner, item.id))?.currency).toBe('EUR');
    expect(counter.queries).toBe(1);

    const stranger = { kind: 'restaurant' as const, id: 'rst_someoneelse000000000' };
    expect(await cache.find(stranger, item.id)).toBeUndefined();
    expect(await cache.find(stranger, item.id)).toBeUndefined();
    expect(await cache.find(owner, 'itm_missing0000000000000')).toBeUndefined();
    expect(counter.queries).toBe(4);
  });

  it('shares one query between concurrent misses and reloads after the TTL', async () => {
    let now = 1_000_000;
    const { counted, counter } = counting(database.db);
    const cache = new ItemAccessCache(counted, { ttlMs: 5_000, now: () => now });
    const { item, owner } = await seedItem('b');
    await Promise.all(Array.from({ length: 20 }, () => cache.find(owner, item.id)));
    expect(counter.queries).toBe(1);
    now += 5_001;
    await cache.find(owner, item.id);
    expect(counter.queries).toBe(2);
  });

  it('drops an item, or a whole restaurant, when console publishes an invalidation', async () => {
    const cache = new ItemAccessCache(database.db, { ttlMs: 60_000 });
    await subscribeToInvalidations(
      subscriber,
      { channel: accessInvalidations, prefix },
      cache,
      createLogger({ service: 'test', level: 'silent' }),
    );
    const first = await seedItem('c');
    expect((await cache.find(first.owner, first.item.id))?.restaurant.subscription_status).toBe('active');

    await database.db.updateTable('items').set({ name: 'Bisque' }).where('id', '=', first.item.id).execute();
    expect((await cache.find(first.owner, first.item.id))?.item.name).toBe('Soup');
    await accessInvalidations.publish(publisher, prefix, { itemId: first.item.id });
    await until(async () => (await cache.find(first.owner, first.item.id))?.item.name === 'Bisque');
    expect((await cache.find(first.owner, first.item.id))?.item.name).toBe('Bisque');

    await updateRestaurant(database.db, first.restaurant.id, { subscription_status: 'lapsed' });
    await accessInvalidations.publish(publisher, prefix, { restaurantId: first.restaurant.id });
    await until(async () => (await cache.find(first.owner, first.item.id))?.restaurant.subscription_status === 'lapsed');
    expect((await cache.find(first.owner, first.item.id))?.restaurant.subscription_status).toBe('lapsed');
  });

  it('never stores a lookup that raced an invalidation', async () => {
    const { counted, counter } = counting(database.db);
    const cache = new ItemAccessCache(counted, { ttlMs: 60_000 });
    const { item, owner } = await seedItem('d');
    const racing = cache.find(owner, item.id);
    cache.invalidate({ itemId: 'itm_unrelated000000000000' });
    expect((await racing)?.item.id).toBe(item.id);
    await cache.find(owner, item.id);
    expect(counter.queries).toBe(2);
  });
});
