import { describe, expect, it } from 'vitest';
import { InvalidatedCache, InvalidationChannel } from './invalidated-cache.js';

describe('InvalidationChannel', () => {
  const channel = new InvalidationChannel('things:invalidate', ['thingId', 'ownerId']);

  it('names itself under a prefix and parses messages naming one thing', () => {
    expect(channel.name('p1:')).toBe('p1:things:invalidate');
    expect(channel.parse('{"thingId":"t_1"}')).toEqual({ thingId: 't_1' });
    expect(channel.parse('{"ownerId":"o_1","extra":true}')).toEqual({ ownerId: 'o_1' });
  });

  it('parses anything else to null', () => {
    for (const raw of ['', 'not json', 'null', '[]', '{"thingId":7}', '{"otherId":"x"}']) expect(channel.parse(raw)).toBeNull();
  });
});

describe('InvalidatedCache', () => {
  it('drops matching entries and never stores a load that raced an invalidation', async () => {
    const cache = new InvalidatedCache<{ owner: string }>({ ttlMs: 60_000, maxEntries: 2 });
    let loads = 0;
    const load = (owner: string) => () => Promise.resolve((loads++, { owner }));
    await cache.get('a', load('x'));
    await cache.get('a', load('x'));
    expect(loads).toBe(1);
    cache.invalidateWhere((value) => value.owner === 'x');
    const racing = cache.get('a', load('x'));
    cache.invalidateWhere(() => false);
    await racing;
    await cache.get('a', load('x'));
    expect(loads).toBe(3);
    // The bound pushes the oldest entry out.
    await cache.get('b', load('y'));
    await cache.get('c', load('z'));
    await cache.get('a', load('x'));
    expect(loads).toBe(6);
  });

  it('drops exactly the entries filed under a name, and unfiles what leaves the cache', async () => {
    const cache = new InvalidatedCache<{ id: string; owner: string }>({
      ttlMs: 60_000,
      maxEntries: 3,
      indexBy: (value) => [`id:${value.id}`, `owner:${value.owner}`],
    });
    const loaded: string[] = [];
    const load = (id: string, owner: string) => () => Promise.resolve((loaded.push(id), { id, owner }));
    const fill = async () => {
      await cache.get('a', load('a', 'x'));
      await cache.get('b', load('b', 'x'));
      await cache.get('c', load('c', 'y'));
    };
    await fill();
    cache.invalidateIndexed('owner:x');
    await fill();
    expect(loaded).toEqual(['a', 'b', 'c', 'a', 'b']);
    cache.invalidateIndexed('id:c');
    cache.invalidateIndexed('owner:nobody');
    await fill();
    expect(loaded.slice(5)).toEqual(['c']);
    // 'd' pushes out 'a' (least recently used), which leaves the index with it; the owner's next
    // invalidation drops its entries still cached ('b', 'd') and keeps 'c'.
    await cache.get('d', load('d', 'x'));
    cache.invalidateIndexed('owner:x');
    await cache.get('c', load('c', 'y'));
    await cache.get('b', load('b', 'x'));
    await cache.get('a', load('a', 'x'));
    expect(loaded.slice(6)).toEqual(['d', 'b', 'a']);
  });
});
