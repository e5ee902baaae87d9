import { describe, expect, it } from 'vitest';
import { TickBatch } from './tick-batch.js';

describe('TickBatch', () => {
  it("serves one turn's calls with one run, each its own result, and the next turn's with another", async () => {
    const runs: number[][] = [];
    const batch = new TickBatch(async (items: number[]) => (runs.push(items), items.map((item) => item * 10)));
    expect(await Promise.all([batch.add(1), batch.add(2), batch.add(3)])).toEqual([10, 20, 30]);
    expect(await batch.add(4)).toBe(40);
    expect(runs).toEqual([[1, 2, 3], [4]]);
  });

  it('runs at once when a turn reaches the bound', async () => {
    const runs: number[][] = [];
    const batch = new TickBatch(async (items: number[]) => (runs.push(items), items), 2);
    await Promise.all([1, 2, 3].map((item) => batch.add(item)));
    expect(runs).toEqual([[1, 2], [3]]);
  });

  it("rejects every call of a run that fails, whether it throws or rejects, and serves the next turn's", async () => {
    let fail: 'throw' | 'reject' | null = 'throw';
    const batch = new TickBatch((items: number[]) => {
      if (fail === 'throw') throw new Error('thrown');
      return fail === 'reject' ? Promise.reject(new Error('rejected')) : Promise.resolve(items);
    });
    await expect(Promise.all([batch.add(1), batch.add(2)])).rejects.toThrow('thrown');
    fail = 'reject';
    await expect(batch.add(3)).rejects.toThrow('rejected');
    fail = null;
    expect(await batch.add(4)).toBe(4);
  });
});
