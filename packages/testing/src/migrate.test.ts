import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createDb, migrateToLatest } from '@partner/db';

import { adminDatabaseUrl, withDatabase } from './database.js';
import pg from 'pg';

const name = `ptr_mig_${Date.now()}`;
const admin = async (query: string) => {
  const client = new pg.Client({ connectionString: adminDatabaseUrl() });
  await client.connect();
  await client.query(query);
  await client.end();
};

describe('migrateToLatest', () => {
  afterAll(() => admin(`drop database if exists ${name} with (force)`));

  it('is safe with two processes at once and when run again', async () => {
    await admin(`create database ${name}`);
    const url = withDatabase(adminDatabaseUrl(), name);
    const first = createDb({ url, max: 1 });
    const second = createDb({ url, max: 1 });
    const [a, b] = await Promise.all([migrateToLatest(first), migrateToLatest(second)]);
    expect(a.error).toBeUndefined();
    expect(b.error).toBeUndefined();
    const applied = [...(a.results ?? []), ...(b.results ?? [])].filter((r) => r.status === 'Success');
    expect(applied.map((r) => r.migrationName)).toEqual([
      '2026-11-22-foundation',
      '2026-11-23-catalog',
      '2026-11-24-webhooks',
      '2026-11-25-contacts',
      '2026-11-26-menu-page-switch',
      '2026-11-27-webhook-fair-claim',
      '2026-11-28-outbox-published-menu',
      '2026-11-29-gateway-daily-counts',
      '2026-11-30-webhook-signature-scheme',
      '2026-12-01-webhook-waiting-indexes',
      '2026-12-02-menu-version',
      '2026-12-03-webhook-retention',
      '2026-12-04-webhook-lease-hot',
      '2026-12-05-webhook-waiting-on-grants',
      '2026-12-06-audit-events',
      '2026-12-07-outbox-trace-context',
      '2026-12-08-accounts',
      '2026-12-09-embed-views',
      '2026-12-10-item-drafts',
      '2026-12-11-outbox-notify',
      '2026-12-12-idempotency-claim-token',
      '2026-12-13-session-mailbox-proof',
    ]);

    const again = await migrateToLatest(first);
    expect(again.error).toBeUndefined();
    expect(again.results).toEqual([]);
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from items`.execute(first);
    expect(rows[0]?.n).toBe(0);
    await Promise.all([first.destroy(), second.destroy()]);
  });
});
