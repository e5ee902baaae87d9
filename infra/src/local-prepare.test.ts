import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalSetupError, prepareLocalStack } from './local-prepare.js';

// The start preparation against this machine's Postgres and Redis, with a role and a Redis user of this
// test's own that log in with a password. (This machine's Postgres trusts loopback connections, so there
// the password is passed but not checked; Redis checks it.)

const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const redisAdminUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const suffix = randomBytes(4).toString('hex');
const role = `start_role_${suffix}`;
const database = `start_db_${suffix}`;
// Characters that must be percent-encoded in a URL: they reach the drivers decoded, as given.
const password = `p@ss:w/rd ${suffix}`;
const redisUser = `start_user_${suffix}`;
const redisPassword = `secret-${randomBytes(8).toString('hex')}`;

const databaseUrl = (name: string) => `postgres://${role}:${encodeURIComponent(password)}@127.0.0.1:5432/${name}`;
const redisUrl = (secret: string) => `redis://${redisUser}:${secret}@127.0.0.1:6379`;

async function admin<T extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

function redisCli(...args: string[]): string {
  const { status, stdout, stderr } = spawnSync('redis-cli', ['-u', redisAdminUrl, ...args], { encoding: 'utf8' });
  if (status !== 0 || stdout.startsWith('ERR')) throw new Error(`redis-cli ${args[0]} failed: ${stdout}${stderr}`);
  return stdout.trim();
}

beforeAll(async () => {
  await admin(`create role ${role} login createdb password '${password.replace(/'/g, "''")}'`);
  redisCli('ACL', 'SETUSER', redisUser, 'on', `>${redisPassword}`, '~*', '&*', '+@all');
});

afterAll(async () => {
  await admin(`drop database if exists ${database} with (force)`);
  await admin(`drop role if exists ${role}`);
  redisCli('ACL', 'DELUSER', redisUser);
});

describe('prepareLocalStack with given URLs and passwords', () => {
  it('creates and migrates the database as the given role, and checks Redis as the given user', async () => {
    const env = { PATH: process.env.PATH, DATABASE_URL: databaseUrl(database), REDIS_URL: redisUrl(redisPassword) };

    await expect(prepareLocalStack(env)).resolves.toEqual({ databaseUrl: env.DATABASE_URL, redisUrl: env.REDIS_URL });

    // Everything was done as the role: it owns the database it created and every table the migrations made.
    const [owner] = await admin<{ owner: string }>('select pg_get_userbyid(datdba) as owner from pg_database where datname = $1', [
      database,
    ]);
    expect(owner?.owner).toBe(role);
    const client = new pg.Client({ connectionString: databaseUrl(database) });
    await client.connect();
    try {
      const { rows } = await client.query<{ tableowner: string; count: number }>(
        "select tableowner, count(*)::int as count from pg_tables where schemaname = 'public' group by tableowner",
      );
      expect(rows).toEqual([{ tableowner: role, count: expect.any(Number) }]);
      expect(rows[0]?.count).toBeGreaterThan(10);
      const migrated = await client.query('select name from kysely_migration');
      expect(migrated.rowCount).toBeGreaterThan(0);
    } finally {
      await client.end();
    }

    // A second start finds the database and its schema as they are.
    await expect(prepareLocalStack(env)).resolves.toEqual({ databaseUrl: env.DATABASE_URL, redisUrl: env.REDIS_URL });
  });

  it('stops at a wrong Redis password with one line that names the URL without its password', async () => {
    const wrong = `wrong-${suffix}`;
    const env = { PATH: process.env.PATH, DATABASE_URL: databaseUrl(database), REDIS_URL: redisUrl(wrong) };

    const err = await prepareLocalStack(env).catch((caught: unknown) => caught);

    expect(err).toBeInstanceOf(LocalSetupError);
    expect((err as Error).message).toMatch(
      new RegExp(`^cannot use Redis \\(redis://${redisUser}:\\*\\*\\*@127\\.0\\.0\\.1:6379\\): WRONGPASS `),
    );
    expect((err as Error).message).not.toContain(wrong);
  });

  it('stops with the reason when the role may not create the missing database, without its password', async () => {
    await admin(`alter role ${role} nocreatedb`);
    const env = { PATH: process.env.PATH, DATABASE_URL: databaseUrl(`${database}_missing`), REDIS_URL: redisUrl(redisPassword) };

    const err = await prepareLocalStack(env).catch((caught: unknown) => caught);

    expect(err).toBeInstanceOf(LocalSetupError);
    expect((err as Error).message).toBe(
      `cannot use Postgres (postgres://${role}:***@127.0.0.1:5432/${database}_missing): permission denied to create database`,
    );
  });
});
