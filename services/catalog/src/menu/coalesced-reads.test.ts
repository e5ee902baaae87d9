import { describe, expect, it } from 'vitest';
import { CoalescedReads } from './coalesced-reads.js';

/** A load whose calls are counted and which finishes when the test says so. */
function controlledLoad() {
  const calls: PromiseWithResolvers<number>[] = [];
  return {
    calls,
    load: () => {
      const call = Promise.withResolvers<number>();
      calls.push(call);
      return call.promise;
    },
  };
}

const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('CoalescedReads', () => {
  it('answers callers that came during a read from one next read, never from the read already under way', async () => {
    const reads = new CoalescedReads<number>();
    const { calls, load } = controlledLoad();
    const first = reads.read('k', load);
    const during = [reads.read('k', load), reads.read('k', load), reads.read('k', load)];
    expect(calls).toHaveLength(1);
    calls[0]!.resolve(1);
    expect(await first).toBe(1);
    await settled();
    expect(calls).toHaveLength(2);
    calls[1]!.resolve(2);
    expect(await Promise.all(during)).toEqual([2, 2, 2]);
    await settled();
    expect(calls).toHaveLength(2);
  });

  it('keeps keys apart, and a failed read fails only its own callers', async () => {
    const reads = new CoalescedReads<number>();
    const { calls, load } = controlledLoad();
    const a = reads.read('a', load);
    const b = reads.read('b', load);
    expect(calls).toHaveLength(2);
    calls[0]!.reject(new Error('connection reset'));
    calls[1]!.resolve(7);
    await expect(a).rejects.toThrow('connection reset');
    expect(await b).toBe(7);
    const again = reads.read('a', load);
    calls[2]!.resolve(8);
    expect(await again).toBe(8);
  });
});
