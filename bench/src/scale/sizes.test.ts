import { afterEach, describe, expect, it } from 'vitest';
import { sizeLabel, sizesFrom } from './sizes.js';

describe('sizesFrom', () => {
  afterEach(() => {
    delete process.env.BENCH_TEST_SIZES;
  });

  it('reads plain numbers and k/M suffixes, smallest first', () => {
    process.env.BENCH_TEST_SIZES = '1M, 10k,500,2.5k';
    expect(sizesFrom('BENCH_TEST_SIZES', [1])).toEqual([500, 2_500, 10_000, 1_000_000]);
  });

  it('gives the defaults when the variable is unset', () => {
    expect(sizesFrom('BENCH_TEST_SIZES', [10_000, 100_000])).toEqual([10_000, 100_000]);
  });

  it('names the variable and the part it cannot read', () => {
    process.env.BENCH_TEST_SIZES = '10k,lots';
    expect(() => sizesFrom('BENCH_TEST_SIZES', [1])).toThrow('BENCH_TEST_SIZES: "lots" is not a size');
  });
});

describe('sizeLabel', () => {
  it('writes sizes as the curves label them', () => {
    expect([0, 500, 10_000, 1_000_000, 10_000_000].map(sizeLabel)).toEqual(['0', '500', '10k', '1M', '10M']);
  });
});
