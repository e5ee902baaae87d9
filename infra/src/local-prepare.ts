import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import pg from 'pg';
import { createDb, migrateToLatest } from '@partner/db';
import { repoRoot } from './local-env.js';
import { gatherLocalFacts, pingRedis } from './local-probes.js';
import { maskUrl, planLocalServices } from './local-services.js';

/** A reason `pnpm start` cannot go on, in one line fit to print as it is (no password in it). */
export class LocalSetupError extends Error {}

export interface PreparedStack {
  databaseUrl: string;
  redisUrl: string;
}

const INVALID_CATALOG_NAME = '3D000';

async function connectPostgres(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
    return client;
  } catch (err) {
    await client.end().catch(() => {});
    throw err;
  }
}

/**
 * Creates the URL's database when it does not exist yet. Only then is the `postgres` database used (to
 * create it): a role that owns an existing database needs no access to any other.
 */
async function ensureDatabase(url: string): Promise<void> {
  try {
    await (await connectPostgres(url)).end();
    return;
  } catch (err) {
    if ((err as { code?: string }).code !== INVALID_CATALOG_NAME) throw err;
  }
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = await connectPostgres(admin.toString());
  try {
    await client.query(`create database "${name.replace(/"/g, '""')}"`);
  } finally {
    await client.end();
  }
}

function runEnsureServices(args: string[]): void {
  const { status } = spawnSync('bash', [join(repoRoot, 'infra', 'local', 'ensure-services.sh'), ...args], { stdio: 'inherit' });
  if (status !== 0) throw new LocalSetupError(`infra/local/ensure-services.sh ${args.join(' ')} failed (see above)`);
}

const failure = (what: string, url: string, err: unknown) =>
  new LocalSetupError(`${what} (${maskUrl(url)}): ${err instanceof Error ? err.message : String(err)}`, { cause: err });

/**
 * Everything before the services start: Postgres and Redis found, started or installed as planned (or the
 * one line saying what is missing), both checked with the URLs the services will get, the database
 * created and migrated.
 */
export async function prepareLocalStack(env: NodeJS.ProcessEnv): Promise<PreparedStack> {
  const plan = planLocalServices(await gatherLocalFacts(env));
  if (!plan.ok) throw new LocalSetupError(plan.message);
  if (plan.install.length) runEnsureServices(['--install', ...plan.install]);
  if (plan.start.length) runEnsureServices(plan.start);

  const { databaseUrl, redisUrl } = plan;
  await pingRedis(redisUrl).catch((err: unknown) => {
    throw failure('cannot use Redis', redisUrl, err);
  });
  await ensureDatabase(databaseUrl).catch((err: unknown) => {
    throw failure('cannot use Postgres', databaseUrl, err);
  });
  const db = createDb({ url: databaseUrl, max: 1 });
  const migration = await migrateToLatest(db);
  await db.destroy();
  if (migration.error) throw failure('migrating the database failed', databaseUrl, migration.error);
  return { databaseUrl, redisUrl };
}
