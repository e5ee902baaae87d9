import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testRedisUrl, useRedisPrefix } from '@partner/testing';
import { KeyUseRecorder, readKeysLastUsed } from './key-last-used.js';
import { connectRedis, type RedisClient } from './redis.js';

const prefix = useRedisPrefix();
let redis: RedisClient;
beforeAll(async () => {
  redis = await connectRedis(testRedisUrl(), () => {});
});
afterAll(async () => {
  await redis.quit();
  await prefix.cleanup();
});

describe('when keys were last used', () => {
  it('is written at most once a minute per key, and read back to the minute, for 90 days', async () => {
    const writes: string[] = [];
    const counting = new Proxy(redis, {
      get: (target, name, receiver) =>
        name === 'set'
          ? (...args: Parameters<RedisClient['set']>) => (writes.push(String(args[0])), target.set(...args))
          : (Reflect.get(target, name, receiver) as unknown),
    });
    const recorder = new KeyUseRecorder(counting, prefix.prefix);
    const t = Date.UTC(2026, 10, 27, 12, 30, 10);
    recorder.used('key_a', t);
    recorder.used('key_a', t + 20_000);
    recorder.used('key_b', t + 20_000);
    recorder.used('key_a', t + 60_000);
    expect(writes).toHaveLength(3);

    const read = () => readKeysLastUsed(redis, prefix.prefix, ['key_a', 'key_b', 'key_never']);
    await expect.poll(async () => (await read()).get('key_a')?.toISOString()).toBe('2026-11-27T12:31:00.000Z');
    expect((await read()).get('key_b')?.toISOString()).toBe('2026-11-27T12:30:00.000Z');
    expect((await read()).has('key_never')).toBe(false);
    expect(await redis.ttl(`${prefix.prefix}keys:last-used:key_a`)).toBeGreaterThan(89 * 24 * 3600);
    expect(await readKeysLastUsed(redis, prefix.prefix, [])).toEqual(new Map());
  });
});
