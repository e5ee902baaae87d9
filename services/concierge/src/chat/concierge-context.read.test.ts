import { CompiledQuery, type RootOperationNode, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedItems, type TestDatabase, useTestDatabase } from '@partner/testing';
import { grantIntegrator, seedRestaurant, setKillSwitch } from '../testing/factories.js';
import { findConciergeContext } from '@partner/db';

// Every turn reads the draft names with its restaurant (the reply guard withholds them): the read must
// cost the drafts, not the menu (issue 17: turns cost O(matches), not O(menu)).

let database: TestDatabase;
beforeAll(async () => {
  database = await useTestDatabase();
});
afterAll(() => database.drop());

interface PlanNode {
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows'?: number;
  'Rows Removed by Filter'?: number;
  Plans?: PlanNode[];
}

/** Rows a plan (run with ANALYZE) read from items and its indexes, node by node. */
function itemRowsRead(node: PlanNode): number {
  const reads = node['Relation Name'] === 'items' || node['Index Name']?.startsWith('items');
  const own = reads ? (node['Actual Rows'] ?? 0) + (node['Rows Removed by Filter'] ?? 0) : 0;
  return own + (node.Plans ?? []).reduce((sum, child) => sum + itemRowsRead(child), 0);
}

describe("findConciergeContext's draft names", () => {
  it("lists a restaurant's live drafts, the most recently changed first, reading only them beside 20,000 published dishes", async () => {
    const { restaurant, draft } = await seedRestaurant(database.db);
    await seedItems(database.db, restaurant.id, 20_000);
    const later = new Date(Date.now() + 60_000);
    const insertDraft = (name: string, fields: { deleted_at?: Date; status?: 'draft' | 'archived' } = {}) =>
      database.db
        .insertInto('items')
        .values({
          id: `itm_${name.replace(/\W/g, '')}`,
          restaurant_id: restaurant.id,
          section_id: null,
          slug: name.toLowerCase().replace(/\W+/g, '-'),
          name,
          description: null,
          price_cents: 1000,
          status: fields.status ?? 'draft',
          created_at: later,
          updated_at: later,
          deleted_at: fields.deleted_at ?? null,
        })
        .execute();
    await insertDraft('Saffron Arancini');
    await insertDraft('Old Gnocchi', { deleted_at: later });
    await insertDraft('Winter Stew', { status: 'archived' });
    await sql`analyze items`.execute(database.db);

    let read: RootOperationNode | undefined;
    const watched = database.db.withPlugin({
      transformQuery: ({ node }) => (read = node),
      transformResult: ({ result }) => Promise.resolve(result),
    });
    const owner = { kind: 'restaurant', id: restaurant.id } as const;
    const found = await findConciergeContext(watched, owner, restaurant.id, { draftNames: true });
    expect(found?.draftNames).toEqual(['Saffron Arancini', draft.name]);

    const query = database.db.getExecutor().compileQuery(read!, { queryId: 'drafts' });
    const { rows } = await database.db.executeQuery<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
      CompiledQuery.raw(`explain (analyze, format json) ${query.sql}`, [...query.parameters]),
    );
    expect(itemRowsRead(rows[0]!['QUERY PLAN'][0].Plan)).toBeLessThan(100);
  });

  it('reads the restaurant, the grant and the kill switch in one statement, and nothing the owner does not reach', async () => {
    const { restaurant, owner } = await seedRestaurant(database.db);
    const other = await seedRestaurant(database.db);
    const integrator = await grantIntegrator(database.db, restaurant.id, { scopes: ['menu:read', 'concierge:chat'] });
    const revoked = await grantIntegrator(database.db, restaurant.id, { scopes: ['concierge:chat'], status: 'revoked' });
    await setKillSwitch(database.db, true);
    try {
      const own = await findConciergeContext(database.db, owner, restaurant.id, { draftNames: false });
      expect(own).toMatchObject({ restaurant: { id: restaurant.id }, grantScopes: null, killSwitch: true, draftNames: [] });
      const granted = await findConciergeContext(database.db, integrator, restaurant.id, { draftNames: false });
      expect(granted).toMatchObject({ restaurant: { id: restaurant.id }, grantScopes: ['menu:read', 'concierge:chat'] });
      expect(await findConciergeContext(database.db, revoked, restaurant.id, { draftNames: true })).toBeUndefined();
      expect(await findConciergeContext(database.db, other.owner, restaurant.id, { draftNames: true })).toBeUndefined();
      expect(await findConciergeContext(database.db, integrator, 'rst_missing', { draftNames: true })).toBeUndefined();
    } finally {
      await setKillSwitch(database.db, false);
    }
    expect((await findConciergeContext(database.db, owner, restaurant.id, { draftNames: false }))?.killSwitch).toBe(false);
  });
});
