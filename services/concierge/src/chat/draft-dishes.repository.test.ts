import { CompiledQuery, type RootOperationNode, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedItems, type TestDatabase, useTestDatabase } from '@partner/testing';
import { seedRestaurant } from '../testing/factories.js';
import { listDraftDishNames } from './draft-dishes.repository.js';

// Every turn reads the draft names (the reply guard withholds them): the read must cost the drafts,
// not the menu (issue 17: turns cost O(matches), not O(menu)).

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

describe('listDraftDishNames', () => {
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
    expect(await listDraftDishNames(watched, restaurant.id)).toEqual(['Saffron Arancini', draft.name]);

    const query = database.db.getExecutor().compileQuery(read!, { queryId: 'drafts' });
    const { rows } = await database.db.executeQuery<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
      CompiledQuery.raw(`explain (analyze, format json) ${query.sql}`, [...query.parameters]),
    );
    expect(itemRowsRead(rows[0]!['QUERY PLAN'][0].Plan)).toBeLessThan(100);
  });
});
