import { execFile, execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '@partner/testing';

const run = promisify(execFile);

/**
 * A Postgres cluster of the run's own (initdb into a temporary directory, a free loopback port): the
 * fault cases stop and freeze it, which they must never do to the machine's shared server.
 */
export interface OwnPostgres {
  url: string;
  /** `pg_ctl stop -m <mode>`: `fast` is an orderly outage (connections are told), `immediate` a crash. */
  stop(mode: 'fast' | 'immediate'): Promise<void>;
  start(): Promise<void>;
  /** SIGSTOP to the postmaster and every backend: connections stay open and nothing answers. */
  freeze(): void;
  thaw(): void;
  /** Stops the server whatever its state and deletes the directory. */
  destroy(): Promise<void>;
}

/** The newest installed server's binaries (Debian's layout), or POSTGRES_BIN_DIR. */
function binDir(): string {
  if (process.env.POSTGRES_BIN_DIR) return process.env.POSTGRES_BIN_DIR;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((name) => /^\d+$/.test(name)) : [];
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  if (!newest) throw new Error(`no PostgreSQL server under ${root}; set POSTGRES_BIN_DIR`);
  return join(root, newest, 'bin');
}

/** initdb and postgres refuse to run as root: as root, they run as the `postgres` OS user. */
const asRoot = process.getuid?.() === 0;
const command = (bin: string, args: string[]): [string, string[]] =>
  asRoot ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];

/** Direct children of a process, from /proc (Linux). */
function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The command name is in parentheses and may itself hold spaces: the fields after it are fixed.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) children.push(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  return children;
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // already gone
  }
}

export async function startOwnPostgres(): Promise<OwnPostgres> {
  const bin = binDir();
  const dir = mkdtempSync(join(tmpdir(), 'ptr-fault-pg-'));
  const data = join(dir, 'data');
  const port = await freePort();
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  const pg = async (name: string, args: string[]) => {
    const [file, argv] = command(join(bin, name), args);
    await run(file, argv, { cwd: dir });
  };
  // fsync off: the cases stop Postgres in order or freeze it, never crash the machine under it.
  const serverOptions = [
    `-p ${port}`,
    '-c listen_addresses=127.0.0.1',
    `-c unix_socket_directories=${dir}`,
    '-c fsync=off',
    '-c max_connections=200',
  ].join(' ');
  let frozen: number[] = [];
  let destroyed = false;
  const postmasterPid = (): number | null => {
    try {
      return Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
    } catch {
      return null;
    }
  };

  const own: OwnPostgres = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start: () =>
      destroyed
        ? Promise.reject(new Error('the own Postgres was destroyed'))
        : pg('pg_ctl', ['start', '-w', '-t', '60', '-D', data, '-l', join(dir, 'postgres.log'), '-o', serverOptions]),
    stop: (mode) => pg('pg_ctl', ['stop', '-w', '-t', '60', '-D', data, '-m', mode]),
    freeze() {
      const pid = postmasterPid();
      if (pid === null) throw new Error('Postgres is not running');
      // The postmaster first, so it forks no new backend while its children are being stopped.
      signal(pid, 'SIGSTOP');
      frozen = [pid, ...childrenOf(pid)];
      for (const child of frozen.slice(1)) signal(child, 'SIGSTOP');
    },
    thaw() {
      for (const pid of [...frozen].reverse()) signal(pid, 'SIGCONT');
      frozen = [];
    },
    async destroy() {
      destroyed = true;
      own.thaw();
      const pid = postmasterPid();
      await own.stop('immediate').catch(() => undefined);
      if (pid !== null) signal(pid, 'SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    await pg('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
    await own.start();
  } catch (err) {
    await own.destroy();
    throw err;
  }
  return own;
}
