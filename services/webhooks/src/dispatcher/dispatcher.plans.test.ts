import { CompiledQuery, type RootOperationNode, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateRestaurant, useTestDatabase } from '@partner/testing';
import { seedDeliveredHistory } from '../testing/history.js';
import { startReceiver } from '../testing/receiver.js';
import {
  arrangeDelivery,
  arrangeEndpoint,
  arrangeGrantedIntegrator,
  arrangeOwner,
  emitItemUpdated,
  testDispatcher,
} from '../testing/webhook-fixtures.js';
import { claimDueDeliveries } from '../webhooks.repository.js';
import { WebhookSender } from './sender.js';

// Cost that grows with the delivery history stalls the dispatcher as the platform ages (issue 17): at
// 10M delivered rows a round that scanned them fell to 186 deliveries/s. Every statement a tick runs
// (the round and the housekeeping alike) must read an index of the rows it concerns.

const HISTORY = 200_000;
const HISTORY_TABLES = ['webhook_deliveries', 'outbox_events'];

let database: Awaited<ReturnType<typeof useTestDatabase>>;
beforeAll(async () => {
  database = await useTestDatabase();
});
afterAll(() => database.drop());

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  Plans?: PlanNode[];
}

/** Every table a plan reads from start to end (a sequential scan). */
function scannedTables(node: PlanNode): string[] {
  const own = node['Node Type'] === 'Seq Scan' ? [node['Relation Name']!] : [];
  return [...own, ...(node.Plans ?? []).flatMap(scannedTables)];
}

/** Rows a plan (run with ANALYZE) read from webhook_deliveries and its indexes, node by node. */
function deliveryRowsRead(node: PlanNode): number {
  const reads = node['Relation Name'] === 'webhook_deliveries' || node['Index Name']?.startsWith('webhook_deliveries');
  const own = reads ? ((node['Actual Rows'] ?? 0) + (node['Rows Removed by Filter'] ?? 0)) * (node['Actual Loops'] ?? 1) : 0;
  return own + (node.Plans ?? []).reduce((sum, child) => sum + deliveryRowsRead(child), 0);
}

describe('every statement of a dispatcher tick, beside 200,000 delivered rows', () => {
  it('reads an index, never the whole delivery history or outbox', { timeout: 60_000 }, async () => {
    const receiver = await startReceiver();
    const sender = new WebhookSender({ allowPrivate: true }, () => new Date());
    try {
      const { owner } = await arrangeOwner(database.db);
      const endpoint = await arrangeEndpoint(database.db, owner, { url: receiver.url('/hooks') });
      await seedDeliveredHistory(database.db, { endpointId: endpoint.id, restaurantId: owner.id, count: HISTORY });
      // Work for every step: an event to fan out, a held delivery of a renewed restaurant to release,
      // one of an integrator whose grant ended to skip.
      await emitItemUpdated(database.db, owner);
      const lapsed = await arrangeOwner(database.db);
      await arrangeDelivery(database.db, (await arrangeEndpoint(database.db, lapsed.owner)).id, { createdAt: new Date(), status: 'held' });
      await updateRestaurant(database.db, lapsed.owner.id, { subscription_status: 'active' });
      const integrator = await arrangeGrantedIntegrator(database.db, owner.id);
      await arrangeDelivery(database.db, (await arrangeEndpoint(database.db, integrator.owner)).id, {
        createdAt: new Date(),
        eventId: await emitItemUpdated(database.db, owner),
        status: 'held',
      });
      await integrator.revoke();

      const statements: RootOperationNode[] = [];
      const watched = database.db.withPlugin({
        transformQuery: ({ node }) => (statements.push(node), node),
        transformResult: ({ result }) => Promise.resolve(result),
      });
      await testDispatcher(watched, sender, 60_000).tick();
      expect(receiver.received.length).toBeGreaterThan(0);

      const executor = database.db.getExecutor();
      const scans: string[] = [];
      for (const [index, node] of statements.entries()) {
        const query = executor.compileQuery(node, { queryId: `plan${index}` });
        const { rows } = await database.db.executeQuery<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
          CompiledQuery.raw(`explain (format json) ${query.sql}`, [...query.parameters]),
        );
        const scanned = scannedTables(rows[0]!['QUERY PLAN'][0].Plan).filter((table) => HISTORY_TABLES.includes(table));
        if (scanned.length) scans.push(`${scanned.join(', ')}: ${query.sql}`);
      }
      expect(statements.length).toBeGreaterThan(10);
      expect(scans).toEqual([]);
    } finally {
      await sender.close();
      await receiver.close();
    }
  });
});

describe('a claim during a burst', () => {
  it('reads the attempts it takes, not every pending one', { timeout: 60_000 }, async () => {
    const { owner } = await arrangeOwner(database.db);
    const endpoint = await arrangeEndpoint(database.db, owner);
    // Statistics gathered before the burst, when nothing was pending, as autovacuum leaves them.
    await seedDeliveredHistory(database.db, { endpointId: endpoint.id, restaurantId: owner.id, count: 20_000 });
    const eventId = await emitItemUpdated(database.db, owner);
    await sql`
      insert into webhook_deliveries (id, event_id, event_type, endpoint_id, attempt, status, next_attempt_at)
      select 'whd_burst' || g, ${eventId}, 'item.updated', ${endpoint.id}, 1, 'pending', now() - interval '1 second'
      from generate_series(1, 20000) g
    `.execute(database.db);

    let claim: RootOperationNode | undefined;
    const watched = database.db.withPlugin({
      transformQuery: ({ node }) => (claim = node),
      transformResult: ({ result }) => Promise.resolve(result),
    });
    const shape = { limit: 10, perOwner: 32, leased: new Map<string, number>(), scope: 'menu:read' };
    expect(await claimDueDeliveries(watched, new Date(), 60_000, shape)).toHaveLength(10);

    const query = database.db.getExecutor().compileQuery(claim!, { queryId: 'claim' });
    const { rows } = await database.db.executeQuery<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
      CompiledQuery.raw(`explain (analyze, format json) ${query.sql}`, [...query.parameters]),
    );
    // Each step reads at most an owner's turn of rows (32, and the 10 leased before them): never the 20,000.
    expect(deliveryRowsRead(rows[0]!['QUERY PLAN'][0].Plan)).toBeLessThan(500);
  });
});
