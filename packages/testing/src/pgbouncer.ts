import { type ChildProcess, spawn } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { adminDatabaseUrl } from './database.js';
import { freePort } from './ports.js';

export interface OwnPgBouncer {
  /** `databaseUrl` (a database of the upstream server) as reached through this PgBouncer. */
  urlFor(databaseUrl: string): string;
  /** The databases of the client connections it holds now (its admin console's SHOW CLIENTS). */
  clientDatabases(): Promise<string[]>;
  /** Closes every connection it holds to `databaseUrl`'s database, which can then be dropped at once. */
  release(databaseUrl: string): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A PgBouncer of a test's own (Debian's `pgbouncer`; PGBOUNCER_PATH elsewhere), in transaction mode, in
 * front of every database of the Postgres server `upstreamUrl` names, configured as
 * docs/deployment.md tells operators to: the start-up parameters the services send that PgBouncer
 * would refuse are ignored. Run as root (CI), it drops to the `postgres` user, as it refuses to run as
 * root.
 */
export async function startPgBouncer(upstreamUrl: string = adminDatabaseUrl()): Promise<OwnPgBouncer> {
  const upstream = new URL(upstreamUrl);
  const user = decodeURIComponent(upstream.username || 'postgres');
  const port = await freePort();
  const dir = await mkdtemp(join(tmpdir(), 'ptr-pgbouncer-'));
  await chmod(dir, 0o777);
  const config = join(dir, 'pgbouncer.ini');
  await writeFile(join(dir, 'users.txt'), `"${user}" ""\n`);
  await writeFile(
    config,
    [
      '[databases]',
      `* = host=${upstream.hostname} port=${upstream.port || 5432}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `admin_users = ${user}`,
      `auth_file = ${join(dir, 'users.txt')}`,
      'pool_mode = transaction',
      'max_client_conn = 1000',
      'default_pool_size = 20',
      'ignore_startup_parameters = statement_timeout, idle_in_transaction_session_timeout, options',
      `logfile = ${join(dir, 'pgbouncer.log')}`,
      `pidfile = ${join(dir, 'pgbouncer.pid')}`,
      '',
    ].join('\n'),
  );
  const asRoot = process.getuid?.() === 0;
  const child: ChildProcess = spawn(process.env.PGBOUNCER_PATH ?? '/usr/sbin/pgbouncer', [...(asRoot ? ['-u', 'postgres'] : []), config], {
    stdio: 'ignore',
  });
  const urlFor = (databaseUrl: string) => {
    const url = new URL(databaseUrl);
    url.hostname = '127.0.0.1';
    url.port = String(port);
    return url.toString();
  };
  /** One command on the admin console (simple protocol only, no parameters). */
  const adminCommand = async <Row extends object>(command: string): Promise<Row[]> => {
    const admin = new pg.Client({ connectionString: urlFor(new URL('/pgbouncer', upstreamUrl).toString()) });
    await admin.connect();
    try {
      return (await admin.query<Row>(command)).rows;
    } finally {
      await admin.end();
    }
  };
  const clientDatabases = async () => (await adminCommand<{ database: string }>('SHOW CLIENTS')).map((row) => row.database);
  // Postgres waits 5 s for a database's sessions to leave before refusing to drop it; PgBouncer keeps its
  // server connections for minutes. KILL closes them now. (Database names are ours, ptr_t_…: nothing to quote.)
  const release = async (databaseUrl: string) => void (await adminCommand(`KILL ${new URL(databaseUrl).pathname.slice(1)}`));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    await rm(dir, { recursive: true, force: true });
  };
  for (let attempt = 0; ; attempt++) {
    const probe = new pg.Client({ connectionString: urlFor(upstreamUrl) });
    try {
      await probe.connect();
      await probe.query('select 1');
      await probe.end();
      return { urlFor, clientDatabases, release, stop };
    } catch (err) {
      await probe.end().catch(() => {});
      if (attempt >= 50 || child.exitCode !== null) {
        const log = await readFile(join(dir, 'pgbouncer.log'), 'utf8').catch(() => '(no log)');
        await stop();
        throw new Error(`pgbouncer did not start on port ${port}: ${log.slice(-2000)}`, { cause: err });
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
