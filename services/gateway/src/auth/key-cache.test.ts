import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '@partner/auth';
import { insertApiKey, insertRestaurant, type TestDatabase, useTestDatabase } from '@partner/testing';
import { KeyCache } from './key-cache.js';

let database: TestDatabase;
beforeAll(async () => {
  database = await useTestDatabase();
});
afterAll(() => database.drop());

describe('KeyCache', () => {
  it('remembers unknown keys briefly and known keys until invalidated', async () => {
    let now = 1_000_000;
    let queries = 0;
    const counted = database.db.withPlugin({
      transformQuery: (args) => {
        queries++;
        return args.node;
      },
      transformResult: async (args) => args.result,
    });
    const cache = new KeyCache({ db: counted, ttlMs: 60_000, now: () => now });
    const unknown = generateApiKey('secret', 'live');
    expect(await cache.lookup(unknown.hash)).toBeUndefined();
    expect(await cache.lookup(unknown.hash)).toBeUndefined();
    expect(queries).toBe(1);
    now += 10_001;
    expect(await cache.lookup(unknown.hash)).toBeUndefined();
    expect(queries).toBe(2);

    const restaurant = await insertRestaurant(database.db, {
      id: 'rst_cache0000000000000000',
      name: 'Cache',
      slug: 'cache',
      currency: 'USD',
    });
    const known = generateApiKey('secret', 'live');
    await insertApiKey(database.db, {
      id: 'key_cache0000000000000000',
      key_hash: known.hash,
      prefix: known.prefix,
      last4: known.last4,
      type: 'secret',
      environment: 'live',
      name: 'k',
      scopes: [],
      rate_limit_per_min: 10,
      allowed_origins: [],
      restaurant_id: restaurant.id,
      integrator_org_id: null,
    });
    expect((await cache.lookup(known.hash))?.key.id).toBe('key_cache0000000000000000');
    const before = queries;
    await cache.lookup(known.hash);
    expect(queries).toBe(before);
    cache.invalidate({ keyId: 'key_cache0000000000000000' });
    await cache.lookup(known.hash);
    expect(queries).toBe(before + 1);
  });
});
