// pnpm bench:gateway — GET /v1/partner/me through the gateway (key lookup, Redis rate limit, headers)
// against a bare express app returning the same JSON, measured in the same run on this machine.
// Server on core 0, load generator on core 1, 50 connections, no pipelining; medians of several rounds.
import { execFile, fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import autocannon from 'autocannon';
import pg from 'pg';
import { generateApiKey, generateInternalKeyPair } from '@partner/auth';
import { createDb, insertApiKey, insertRestaurant, migrateToLatest } from '@partner/db';

const CONNECTIONS = 50;
const DURATION_S = Number(process.env.BENCH_DURATION ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const execFileAsync = promisify(execFile);
const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

async function admin(sql: string) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  await client.query(sql);
  await client.end();
}

const dbName = `ptr_bench_${randomBytes(4).toString('hex')}`;
await admin(`create database ${dbName}`);
const dbUrl = Object.assign(new URL(adminUrl), { pathname: `/${dbName}` }).toString();
const db = createDb({ url: dbUrl, max: 2 });
const migrated = await migrateToLatest(db);
if (migrated.error) throw migrated.error;
const restaurant = await insertRestaurant(db, {
  id: 'rst_bench0000000000000000',
  name: 'Bench Bistro',
  slug: 'bench-bistro',
  currency: 'USD',
  public_menu_url: null,
  house_notes: null,
  concierge_display_name: null,
  concierge_welcome_message: null,
});
const key = generateApiKey('secret', 'live');
await insertApiKey(db, {
  id: 'key_bench0000000000000000',
  key_hash: key.hash,
  prefix: key.prefix,
  last4: key.last4,
  type: 'secret',
  environment: 'live',
  name: 'bench',
  scopes: ['menu:read'],
  // High enough that no request of the run is refused: we measure the path, not the 429.
  rate_limit_per_min: 1_000_000_000,
  allowed_origins: [],
  restaurant_id: restaurant.id,
  integrator_org_id: null,
});
await db.destroy();

function startPinned(script: string, env: Record<string, string>): ChildProcess {
  const execArgv = process.env.BENCH_PROFILE && script.endsWith('main.js') ? ['--cpu-prof', '--cpu-prof-dir=/tmp/prof'] : [];
  return fork(script, [], { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit', 'ipc'], execArgv });
}

async function waitUntilUp(url: string, headers: Record<string, string>) {
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(url, { headers })).ok) return;
    } catch {
      // not yet
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${url} did not come up`);
}

/** Every thread of a server process onto one core; the load generator runs on the other. */
const pin = (child: ChildProcess, core: number) => execFileAsync('taskset', ['-a', '-p', '-c', String(core), String(child.pid)]);

const auth = { authorization: `Bearer ${key.value}` };
const jwt = generateInternalKeyPair();
const gateway = startPinned(here('../dist/main.js'), {
  DATABASE_URL: dbUrl,
  REDIS_URL: redisUrl,
  REDIS_KEY_PREFIX: `bench${randomBytes(3).toString('hex')}:`,
  GATEWAY_PORT: '18080',
  INTERNAL_JWT_PRIVATE_KEY: jwt.privateKey,
  LOG_LEVEL: 'warn',
});
await waitUntilUp('http://127.0.0.1:18080/v1/partner/me', auth);
const meBody = (await (await fetch('http://127.0.0.1:18080/v1/partner/me', { headers: auth })).json()) as unknown;
const bare = startPinned(here('./bare-app.ts'), { PORT: '18090', BENCH_BODY: JSON.stringify(meBody) });
await waitUntilUp('http://127.0.0.1:18090/v1/partner/me', {});
await Promise.all([pin(gateway, 0), pin(bare, 0)]);

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

async function measure(url: string, duration: number): Promise<Figures> {
  const result = await autocannon({ url, connections: CONNECTIONS, pipelining: 1, duration, headers: auth });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const targets = { gateway: 'http://127.0.0.1:18080/v1/partner/me', bare: 'http://127.0.0.1:18090/v1/partner/me' };
const runs: Record<keyof typeof targets, Figures[]> = { gateway: [], bare: [] };

// Warm both (JIT, connection pools, key cache), then alternate rounds so drift hits both alike.
await measure(targets.gateway, 2);
await measure(targets.bare, 2);
for (let round = 0; round < ROUNDS; round++) {
  for (const name of ['bare', 'gateway'] as const) runs[name].push(await measure(targets[name], DURATION_S));
}

const summary = Object.fromEntries(
  (Object.keys(runs) as (keyof typeof runs)[]).map((name) => [
    name,
    {
      rps: median(runs[name].map((r) => r.rps)),
      p50: median(runs[name].map((r) => r.p50)),
      p99: median(runs[name].map((r) => r.p99)),
      errors: runs[name].reduce((sum, r) => sum + r.errors, 0),
    },
  ]),
) as Record<keyof typeof runs, Figures>;

const ratio = summary.gateway.rps / summary.bare.rps;
console.log(`\nGET /v1/partner/me, ${CONNECTIONS} connections, ${DURATION_S}s x ${ROUNDS} rounds (medians), Node ${process.version}`);
console.log('| target | req/s | p50 ms | p99 ms | errors |');
console.log('|---|---|---|---|---|');
for (const [name, figures] of Object.entries(summary)) {
  console.log(
    `| ${name === 'bare' ? 'bare express (baseline)' : 'gateway'} | ${Math.round(figures.rps)} | ${figures.p50} | ${figures.p99} | ${figures.errors} |`,
  );
}
console.log(`\ngateway / bare throughput: ${ratio.toFixed(2)} (target >= 0.60); gateway p99 ${summary.gateway.p99} ms (target <= 10)`);

gateway.kill('SIGTERM');
bare.kill('SIGTERM');
await Promise.all([once(gateway, 'exit'), once(bare, 'exit')]);
await admin(`drop database if exists ${dbName} with (force)`);
