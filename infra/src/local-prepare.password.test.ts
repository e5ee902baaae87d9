import { spawnSync } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalSetupError, prepareLocalStack } from './local-prepare.js';

// This machine's Postgres trusts loopback connections, so a wrong password would pass there unseen. Here
// a throwaway cluster of the test's own (initdb, scram-sha-256, a free port, no fsync) checks every
// password, as a managed Postgres does.

const bindir = spawnSync('pg_config', ['--bindir'], { encoding: 'utf8' }).stdout?.trim() ?? '';
const adminPassword = 'admin-pw';
const role = 'partner_app';
// Characters that must be percent-encoded in a URL: they reach the server decoded, as given.
const password = "p@ss:w/rd 'x'";
const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

let dir = '';
let port = 0;

// initdb refuses to run as root: there, the cluster is the postgres user's.
function asOwner(command: string, args: string[]): void {
  const [file, argv] = process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
  const { status, stderr } = spawnSync(file, argv, { encoding: 'utf8' });
  if (status !== 0) throw new Error(`${command} failed: ${stderr}`);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = server.address() as { port: number };
      server.close(() => resolve(free));
    });
    server.once('error', reject);
  });
}

const url = (user: string, secret: string, database: string) =>
  `postgres://${user}:${encodeURIComponent(secret)}@127.0.0.1:${port}/${database}`;

describe.skipIf(!bindir)('prepareLocalStack on a Postgres that checks passwords', () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'partner-scram-'));
    writeFileSync(join(dir, 'pw'), adminPassword);
    if (process.getuid?.() === 0) {
      const { stdout } = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
      for (const path of [dir, join(dir, 'pw')]) chownSync(path, Number(stdout), -1);
    }
    port = await freePort();
    asOwner(join(bindir, 'initdb'), [
      '-D',
      join(dir, 'data'),
      '-U',
      'postgres',
      '--auth=scram-sha-256',
      `--pwfile=${join(dir, 'pw')}`,
      '-N',
    ]);
    const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
    asOwner(join(bindir, 'pg_ctl'), ['-D', join(dir, 'data'), '-o', options, '-w', '-l', join(dir, 'log'), 'start']);
    const admin = new pg.Client({ connectionString: url('postgres', adminPassword, 'postgres') });
    await admin.connect();
    await admin.query(`create role ${role} login createdb password '${password.replace(/'/g, "''")}'`);
    await admin.end();
  }, 30_000);

  afterAll(() => {
    if (!dir) return;
    try {
      asOwner(join(bindir, 'pg_ctl'), ['-D', join(dir, 'data'), '-m', 'immediate', 'stop']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('creates and migrates the database with the right password', async () => {
    const env = { PATH: process.env.PATH, DATABASE_URL: url(role, password, 'partner'), REDIS_URL: redisUrl };

    await expect(prepareLocalStack(env)).resolves.toEqual({ databaseUrl: env.DATABASE_URL, redisUrl });

    const client = new pg.Client({ connectionString: env.DATABASE_URL });
    await client.connect();
    try {
      const { rows } = await client.query<{ owner: string }>(
        "select pg_get_userbyid(datdba) as owner from pg_database where datname = 'partner'",
      );
      expect(rows).toEqual([{ owner: role }]);
      expect((await client.query('select name from kysely_migration')).rowCount).toBeGreaterThan(0);
    } finally {
      await client.end();
    }
  });

  it('stops at a wrong password with one line naming the URL without its password', async () => {
    const wrong = 'not-the-password';
    const env = { PATH: process.env.PATH, DATABASE_URL: url(role, wrong, 'partner'), REDIS_URL: redisUrl };

    const err = await prepareLocalStack(env).catch((caught: unknown) => caught);

    expect(err).toBeInstanceOf(LocalSetupError);
    expect((err as Error).message).toBe(
      `cannot use Postgres (postgres://${role}:***@127.0.0.1:${port}/partner): password authentication failed for user "${role}"`,
    );
  });
});
