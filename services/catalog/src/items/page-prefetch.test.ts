import { describe, expect, it } from 'vitest';
import { PagePrefetch, prefetchKey } from './page-prefetch.js';

const page = (...ids: string[]) => ids.map((id) => ({ json: JSON.stringify({ id }) }));

describe('PagePrefetch', () => {
  it('hands a held read to one request only, and reports each lookup as a hit or a miss', async () => {
    const lookups: boolean[] = [];
    const prefetch = new PagePrefetch({ onTake: (hit) => lookups.push(hit) });
    prefetch.hold(prefetchKey('cursor', 2), Promise.resolve(page('a', 'b')));

    expect(prefetch.take(prefetchKey('cursor', 3))).toBeUndefined();
    expect(await prefetch.take(prefetchKey('cursor', 2))).toEqual(page('a', 'b'));
    expect(prefetch.take(prefetchKey('cursor', 2))).toBeUndefined();
    expect(lookups).toEqual([false, true, false]);
  });

  it('holds a failed read as no page, without an unhandled rejection', async () => {
    const prefetch = new PagePrefetch();
    prefetch.hold('failed', Promise.reject(new Error('connection terminated')));
    const late = Promise.withResolvers<{ json: string }[]>();
    prefetch.hold('failing later', late.promise);
    late.reject(new Error('statement timeout'));

    expect(await prefetch.take('failed')).toBeUndefined();
    expect(await prefetch.take('failing later')).toBeUndefined();
  });

  it('keeps the newest pages up to its bound, each for its TTL', async () => {
    let now = 1_000;
    const prefetch = new PagePrefetch({ maxEntries: 2, ttlMs: 10_000, now: () => now });
    for (const key of ['a', 'b', 'c']) prefetch.hold(key, Promise.resolve(page(key)));
    expect(prefetch.take('a')).toBeUndefined();
    expect(await prefetch.take('b')).toEqual(page('b'));

    now += 10_001;
    expect(prefetch.take('c')).toBeUndefined();
  });

  it('keeps pages up to its bound in bytes, counted once read, and none larger than the bound', async () => {
    const prefetch = new PagePrefetch({ maxBytes: 100 });
    const pageOf = (chars: number) => [{ json: 'x'.repeat(chars) }];
    prefetch.hold('a', Promise.resolve(pageOf(20)));
    prefetch.hold('b', Promise.resolve(pageOf(20)));
    await Promise.resolve();
    await Promise.resolve();
    // 40 + 40 bytes fit; a third page of 40 pushes out the least recently held.
    prefetch.hold('c', Promise.resolve(pageOf(20)));
    prefetch.hold('huge', Promise.resolve(pageOf(60)));
    await Promise.resolve();
    await Promise.resolve();
    expect(prefetch.take('huge')).toBeUndefined();
    expect(prefetch.take('a')).toBeUndefined();
    expect(await prefetch.take('b')).toEqual(pageOf(20));
    expect(await prefetch.take('c')).toEqual(pageOf(20));
  });
});
