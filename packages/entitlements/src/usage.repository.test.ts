import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertRestaurant, type TestDatabase, useTestDatabase } from '@partner/testing';
import { consumeUsage, readUsage, type UsageCounter } from './usage.repository.js';

let database: TestDatabase;
beforeAll(async () => {
  database = await useTestDatabase();
});
afterAll(() => database.drop());

const periodStart = new Date('2026-12-01T00:00:00Z');
const counterOf = async (limit: number): Promise<UsageCounter> => ({
  restaurantId: (await insertRestaurant(database.db)).id,
  metric: 'api_requests',
  periodStart,
  limit,
});

describe('consumeUsage', () => {
  it('grants up to the limit, all or the part that is left, then nothing', async () => {
    const counter = await counterOf(10);
    expect(await consumeUsage(database.db, counter, 6)).toBe(6);
    expect(await consumeUsage(database.db, counter, 6)).toBe(4);
    expect(await consumeUsage(database.db, counter, 1)).toBe(0);
    expect(await readUsage(database.db, counter.restaurantId, 'api_requests', periodStart)).toBe(10);
  });

  it('never passes the limit under concurrent takers', async () => {
    const counter = await counterOf(25);
    const granted = await Promise.all(Array.from({ length: 40 }, () => consumeUsage(database.db, counter, 1)));
    expect(granted.reduce((sum, units) => sum + units, 0)).toBe(25);
    expect(await readUsage(database.db, counter.restaurantId, 'api_requests', periodStart)).toBe(25);
  });

  it('keeps what was used when the limit is lowered below it, so raising it again grants no more than it allows', async () => {
    const counter = await counterOf(1500);
    expect(await consumeUsage(database.db, counter, 1400)).toBe(1400);
    // The owner lowers the overage budget: 1,000 a period now.
    expect(await consumeUsage(database.db, { ...counter, limit: 1000 }, 1)).toBe(0);
    expect(await readUsage(database.db, counter.restaurantId, 'api_requests', periodStart)).toBe(1400);
    // And raises it back: 100 are left of 1,500, not 500.
    expect(await consumeUsage(database.db, counter, 500)).toBe(100);
  });
});
