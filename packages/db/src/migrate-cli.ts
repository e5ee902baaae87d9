import { createDb } from './pool.js';
import { migrateToLatest } from './migrate.js';

// `pnpm db:migrate`: the one command that brings DATABASE_URL's schema up to date.
const url = process.env.DATABASE_URL;
if (!url) {
  console.error('DATABASE_URL is required');
  process.exit(1);
}
const db = createDb({ url, max: 1, applicationName: 'migrate' });
const { error, results } = await migrateToLatest(db);
for (const result of results ?? []) console.log(`${result.status.toLowerCase()}: ${result.migrationName}`);
if (!results?.length && !error) console.log('up to date');
await db.destroy();
if (error) {
  console.error('migration failed:', error);
  process.exit(1);
}
