import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey, type GeneratedKey } from '@partner/auth';
import { insertApiKey, insertRestaurant, type TestDatabase, useTestDatabase } from '@partner/testing';
import { KeyCache } from './key-cache.js';

let database: TestDatabase;
beforeAll(async () => {
  database = await useTestDatabase();
});
afterAll(() => database.drop());

/** The database as the cache sees it, counting the queries it is sent. */
function countingDb() {
  const counter = { queries: 0 };
  const db = database.db.withPlugin({
    transformQuery: (args) => {
      counter.queries++;
      return args.node;
    },
    transformResult: async (args) => args.result,
  });
  return { db, counter };
}

/** A live secret key of `restaurantId` with this id. */
const insertKey = (id: string, key: GeneratedKey, restaurantId: string) =>
  insertApiKey(database.db, {
    id,
    key_hash: key.hash,
    prefix: key.prefix,
    last4: key.last4,
    type: 'secret',
    environment: 'live',
    name: 'k',
    scopes: [],
    rate_limit_per_min: 10,
    allowed_origins: [],
    restaurant_id: restaurantId,
    integrator_org_id: null,
  });

describe('KeyCache', () => {
  it('remembers unknown keys briefly and known keys until invalidated', async () => {
    let now = 1_000_000;
    const { db: counted, counter } = countingDb();
    const cache = new KeyCache({ db: counted, ttlMs: 60_000, maxEntries: 100, now: () => now });
    const unknown = generateApiKey('secret', 'live');
    expect(await cache.lookup(unknown.hash)).toBeUndefined();
    expect(await cache.lookup(unknown.hash)).toBeUndefined();
    expect(counter.queries).toBe(1);
    now += 10_001;
    expect(await cache.lookup(unknown.hash)).toBeUndefined();
    expect(counter.queries).toBe(2);

    const restaurant = await insertRestaurant(database.db, {
      id: 'rst_cache0000000000000000',
      name: 'Cache',
      slug: 'cache',
      currency: 'USD',
    });
    const known = generateApiKey('secret', 'live');
    await insertKey('key_cache0000000000000000', known, restaurant.id);
    expect((await cache.lookup(known.hash))?.key.id).toBe('key_cache0000000000000000');
    const before = counter.queries;
    await cache.lookup(known.hash);
    expect(counter.queries).toBe(before);
    cache.invalidate({ keyId: 'key_cache0000000000000000' });
    await cache.lookup(known.hash);
    expect(counter.queries).toBe(before + 1);
  });

  it('looks up the misses of one event-loop turn in one query, and each key once however often it is asked', async () => {
    const restaurant = await insertRestaurant(database.db, {
      id: 'rst_batch0000000000000000',
      name: 'Batch',
      slug: 'batch',
      currency: 'USD',
    });
    const keys: GeneratedKey[] = [];
    for (let i = 0; i < 5; i++) {
      const key = generateApiKey('secret', 'live');
      keys.push(key);
      await insertKey(`key_batch${i}000000000000000`, key, restaurant.id);
    }
    const { db: counted, counter } = countingDb();
    const cache = new KeyCache({ db: counted, ttlMs: 60_000, maxEntries: 100 });
    const unknown = generateApiKey('secret', 'live').hash;
    const hashes = [...keys.map((key) => key.hash), keys[0]!.hash, unknown, unknown];
    const found = await Promise.all(hashes.map((hash) => cache.lookup(hash)));
    expect(found.map((record) => record?.key.id)).toEqual([
      ...keys.map((_, i) => `key_batch${i}000000000000000`),
      'key_batch0000000000000000',
      undefined,
      undefined,
    ]);
    expect(counter.queries).toBe(1);
  });

  it('runs beforeQuery for a key it has not seen resolve, and not again for one that did once its entry expires', async () => {
    let now = 2_000_000;
    const cache = new KeyCache({ db: database.db, ttlMs: 60_000, maxEntries: 100, now: () => now });
    const restaurant = await insertRestaurant(database.db, { id: 'rst_recog0000000000000000', name: 'R', slug: 'recog', currency: 'USD' });
    const known = generateApiKey('secret', 'live');
    await insertKey('key_recog0000000000000000', known, restaurant.id);
    const charged: string[] = [];
    const charge = (what: string) => async () => void charged.push(what);

    expect((await cache.lookup(known.hash, charge('first')))?.key.id).toBe('key_recog0000000000000000');
    now += 60_001;
    expect(cache.cached(known.hash)).toBeUndefined();
    expect((await cache.lookup(known.hash, charge('after expiry')))?.key.id).toBe('key_recog0000000000000000');
    cache.invalidate({ keyId: 'key_recog0000000000000000' });
    expect((await cache.lookup(known.hash, charge('after invalidation')))?.key.id).toBe('key_recog0000000000000000');
    now += 10_001;
    await cache.lookup(generateApiKey('secret', 'live').hash, charge('a guess'));
    expect(charged).toEqual(['first', 'a guess']);
  });
});
