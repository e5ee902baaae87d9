import { execFile, execFileSync, fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { machine } from 'node:os';
import { promisify } from 'node:util';
import autocannon from 'autocannon';
import pg from 'pg';
import { generateApiKey } from '@partner/auth';
import { createDb, type Db, migrateToLatest } from '@partner/db';
import { insertApiKey, insertRestaurant } from '@partner/testing';

// What every benchmark of ours needs: a fresh migrated database, a restaurant with a live key that
// no limit stops, service processes pinned to a core, and autocannon runs summarised by medians.

const execFileAsync = promisify(execFile);
const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const benchRedisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export interface BenchDatabase {
  url: string;
  db: Db;
  drop(): Promise<void>;
}

export async function createBenchDatabase(): Promise<BenchDatabase> {
  const name = `ptr_bench_${randomBytes(4).toString('hex')}`;
  await admin(`create database ${name}`);
  const url = Object.assign(new URL(adminUrl), { pathname: `/${name}` }).toString();
  const db = createDb({ url, max: 4 });
  const migrated = await migrateToLatest(db);
  if (migrated.error) throw new Error('migrating the bench database failed', { cause: migrated.error });
  return {
    url,
    db,
    drop: async () => {
      await db.destroy();
      await admin(`drop database if exists ${name} with (force)`);
    },
  };
}

/** A restaurant and a live secret key with limits high enough that the run measures the path, not a 429. */
export async function seedUnlimitedKey(db: Db, scopes: string[]) {
  const restaurant = await insertRestaurant(db, {
    id: `rst_bench${randomBytes(8).toString('hex')}`,
    name: 'Bench Bistro',
    slug: `bench-${randomBytes(4).toString('hex')}`,
    currency: 'USD',
    monthly_quota: 2_000_000_000,
  });
  const key = generateApiKey('secret', 'live');
  const keyId = `key_bench${randomBytes(8).toString('hex')}`;
  await insertApiKey(db, {
    id: keyId,
    key_hash: key.hash,
    prefix: key.prefix,
    last4: key.last4,
    type: 'secret',
    environment: 'live',
    name: 'bench',
    scopes,
    rate_limit_per_min: 1_000_000_000,
    allowed_origins: [],
    restaurant_id: restaurant.id,
    integrator_org_id: null,
  });
  return { restaurant, keyId, auth: { authorization: `Bearer ${key.value}` } };
}

/** A service process from its built `main.js`; BENCH_PROFILE=1 writes CPU profiles to /tmp/prof. */
const startedProcesses = new Set<ChildProcess>();
// A benchmark that throws must not leave its servers behind (they would hold the terminal's pipe open).
process.on('exit', () => {
  for (const child of startedProcesses) child.kill('SIGKILL');
});

/** The fraction of successful answers the Kubernetes manifests give an access line (read once). */
let deployedSample: string | undefined;
function deployedAccessLogSample(): string {
  if (deployedSample !== undefined) return deployedSample;
  const manifest = readFileSync(new URL('../../../infra/k8s/base/config.env', import.meta.url), 'utf8');
  const sample = /^ACCESS_LOG_SUCCESS_SAMPLE=(\S+)\r?$/m.exec(manifest)?.[1];
  if (!sample) throw new Error('infra/k8s/base/config.env sets no ACCESS_LOG_SUCCESS_SAMPLE');
  return (deployedSample = sample);
}

/**
 * What an observed service runs with: metrics kept (on a free port) and access lines (to its stdout,
 * dropped unless `logTo`) for every error and for successes as the manifests deploy them
 * (`BENCH_ACCESS_LOG_SUCCESS_SAMPLE` for another fraction: 1, every one); tracing stays off.
 */
export function observedEnvironment(): Readonly<Record<string, string>> {
  return {
    METRICS_PORT: '0',
    METRICS_HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    ACCESS_LOG_SUCCESS_SAMPLE: process.env.BENCH_ACCESS_LOG_SUCCESS_SAMPLE ?? deployedAccessLogSample(),
  };
}

/**
 * `logTo`: a file that receives the process's stdout (its log lines), which is dropped otherwise.
 * `observed`: run it as observedEnvironment says; by default when BENCH_OBSERVABILITY=1, for any benchmark.
 * `alike`: started as every other `alike` process is (V8's hash and random seeds fixed, no address
 * space randomisation), so that two such processes of one program run alike (see
 * `pnpm bench:observability`).
 */
export function startProcess(
  script: string,
  env: Record<string, string>,
  options: { logTo?: string; observed?: boolean; alike?: boolean } = {},
): ChildProcess {
  const execArgv = process.env.BENCH_PROFILE ? ['--cpu-prof', '--cpu-prof-dir=/tmp/prof'] : [];
  const stdout = options.logTo ? openSync(options.logTo, 'a') : 'ignore';
  const observed = options.observed ?? process.env.BENCH_OBSERVABILITY === '1';
  const child = fork(script, [], {
    env: { ...process.env, ...env, ...(observed ? observedEnvironment() : {}) },
    stdio: ['ignore', stdout, 'inherit', 'ipc'],
    // setarch runs node in its own place (exec), with the address space laid out the same every time.
    ...(options.alike
      ? {
          execPath: 'setarch',
          execArgv: [machine(), '--addr-no-randomize', process.execPath, '--hash-seed=1', '--random-seed=1', ...execArgv],
        }
      : { execArgv }),
  });
  if (typeof stdout === 'number') closeSync(stdout); // the child holds its own copy
  startedProcesses.add(child);
  child.once('exit', () => startedProcesses.delete(child));
  return child;
}

/**
 * A server's event-loop thread onto one core; run the load generator itself on the other. V8's own
 * threads (garbage collection, optimising compiler) stay free: pinned beside the event loop they take
 * it off its core for whole time slices, which the tail latency showed (item detail p99 108 ms against
 * 44 ms, docs/benchmarks.md).
 */
export const pinToCore = async (child: ChildProcess, core: number): Promise<void> => {
  await execFileAsync('taskset', ['-p', '-c', String(core), String(child.pid)]);
};

/** A bare node:http server answering `body` on every path (see bare-json-server.ts). */
export function startBareJsonServer(port: number, body: unknown): ChildProcess {
  const script = new URL('./bare-json-server.js', import.meta.url).pathname;
  return startProcess(script, { PORT: String(port), BENCH_BODY: JSON.stringify(body) });
}

/** A bare undici proxy to `upstream` adding `headers` to every request (see bare-proxy.ts). */
export function startBareProxy(port: number, upstream: string, headers: Record<string, string>): ChildProcess {
  const script = new URL('./bare-proxy.js', import.meta.url).pathname;
  return startProcess(script, { PORT: String(port), UPSTREAM: upstream, PROXY_HEADERS: JSON.stringify(headers) });
}

let clockTicksPerSecond: number | undefined;

/**
 * The CPU time (user and system) `children` have used so far, in seconds (Linux, /proc): what a run
 * costs the servers, steadier on a shared machine than the throughput it reaches.
 */
export async function cpuSeconds(children: ChildProcess[]): Promise<number> {
  const stats = await Promise.all(children.map((child) => readFile(`/proc/${child.pid}/stat`, 'utf8')));
  // Fields after the command (which may hold spaces) end: utime and stime are the 12th and 13th.
  const ticks = stats.map((stat) => {
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  });
  clockTicksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
  return ticks.reduce((sum, t) => sum + t, 0) / clockTicksPerSecond;
}

export async function stopProcesses(children: ChildProcess[]): Promise<void> {
  for (const child of children) child.kill('SIGTERM');
  await Promise.all(children.map((child) => (child.exitCode === null ? once(child, 'exit') : Promise.resolve())));
}

export async function waitUntilUp(url: string, headers: Record<string, string> = {}): Promise<void> {
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(url, { headers })).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${url} did not come up`);
}

export interface HttpFigures {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

/** One autocannon result, readable: "7,649 req/s, p50 6 ms, p99 11 ms" (and its errors, if any). */
export const formatHttpFigures = (f: HttpFigures): string =>
  `${formatRate(f.rps, 'req/s')}, p50 ${f.p50} ms, p99 ${f.p99} ms${f.errors ? `, ${f.errors} errors` : ''}`;

/** One autocannon run: 50 connections by default, no pipelining. */
export async function measureHttp(
  url: string,
  options: { headers?: Record<string, string>; connections?: number; durationSeconds: number },
): Promise<HttpFigures & { requests: number }> {
  const result = await autocannon({
    url,
    connections: options.connections ?? 50,
    pipelining: 1,
    duration: options.durationSeconds,
    headers: options.headers ?? {},
  });
  return {
    rps: result.requests.average,
    requests: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

export const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export function medianFigures(runs: HttpFigures[]): HttpFigures {
  return {
    rps: median(runs.map((r) => r.rps)),
    p50: median(runs.map((r) => r.p50)),
    p99: median(runs.map((r) => r.p99)),
    errors: runs.reduce((sum, r) => sum + r.errors, 0),
  };
}

import { formatRate } from './report.js';
export { type Measure, type ReportedMeasure, measuresTable, reportMeasures, formatRate } from './report.js';
