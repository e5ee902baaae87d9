import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createDb, type Db, migrateToLatest } from '@partner/db';

// Tests talk to the machine's real Postgres. A template is migrated once per run (vitest globalSetup);
// each test file clones it, so files run in parallel without seeing each other.

export const adminDatabaseUrl = (): string => process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminDatabaseUrl() });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * Drops a test database once its connections have closed. A pool's end() resolves before its sockets
 * are gone, and forcing the drop then kills connections mid-close (an unhandled error in the test
 * process); so wait for them first, and force only what is left after a few seconds (a killed process).
 */
async function dropDatabase(name: string): Promise<void> {
  for (let attempt = 0; attempt < 30; attempt++) {
    try {
      await adminQuery(`drop database if exists ${name}`);
      return;
    } catch (err) {
      if ((err as { code?: string }).code !== '55006') throw err; // object_in_use
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  await adminQuery(`drop database if exists ${name} with (force)`);
}

/** For globalSetup: creates and migrates a fresh template database, returns its name and a teardown. */
export async function createTemplateDatabase(): Promise<{ name: string; drop: () => Promise<void> }> {
  const name = `ptr_tpl_${randomBytes(5).toString('hex')}`;
  await adminQuery(`create database ${name}`);
  const db = createDb({ url: withDatabase(adminDatabaseUrl(), name), max: 1 });
  const { error } = await migrateToLatest(db);
  await db.destroy();
  if (error) throw new Error('migrating the template database failed', { cause: error });
  return { name, drop: () => dropDatabase(name) };
}

export interface TestDatabase {
  url: string;
  db: Db;
  drop(): Promise<void>;
}

/** A database of this test file's own, cloned from the migrated template. */
export async function createTestDatabase(template: string): Promise<TestDatabase> {
  const name = `ptr_t_${randomBytes(6).toString('hex')}`;
  await adminQuery(`create database ${name} template ${template}`);
  const url = withDatabase(adminDatabaseUrl(), name);
  const db = createDb({ url, max: 5 });
  return {
    url,
    db,
    drop: async () => {
      await db.destroy();
      await dropDatabase(name);
    },
  };
}

export { withDatabase };

/** In a test file: a fresh, migrated database of its own (needs the shared globalSetup). */
export async function useTestDatabase(): Promise<TestDatabase> {
  const { inject } = await import('vitest');
  return createTestDatabase(inject('dbTemplate'));
}
