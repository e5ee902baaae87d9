// pnpm --filter @partner/bench rolling-restart: two replicas of every service but console (one), each
// `node dist/main.js` behind a ServiceBalancer (what a Kubernetes Service does, routing to replicas whose
// /readyz answers 200), the gateways behind one more (the ingress). Under load (item detail and /me
// through the ingress with autocannon, and concierge streams one after another on several clients),
// every replica of every service is replaced in turn as a rolling update does it: a new one started and
// ready, then the old one sent SIGTERM and waited for. Counts failed requests and streams cut short;
// both must be zero. Exit code 1 otherwise.
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import type { IncomingHttpHeaders } from 'node:http';
import { sql } from 'kysely';
import { benchRedisUrl, createBenchDatabase, seedUnlimitedKey, startProcess, stopProcesses } from '@partner/bench-kit';
import { freePort, platformEnvironment, seedItems, ServiceBalancer, startFakeOpenAI } from '@partner/testing';
import autocannon from 'autocannon';
import { mainOf, PORT_VARIABLE, type ServiceName } from './services.js';

const STREAM_CLIENTS = Number(process.env.BENCH_STREAMS ?? 4);
/** Set: each replica's log lines (warnings and errors) go to `<dir>/<service>-<port>.log`. */
const LOG_DIR = process.env.BENCH_LOG_DIR;
/** How late the balancers learn that a replica is unready, as a Service's endpoints lag a pod's state. */
const ROUTING_LAG_MS = Number(process.env.BENCH_ROUTING_LAG_MS ?? 500);
/** Longer than the lag: a replica keeps serving until no balancer sends it anything new. */
const DRAIN_SECONDS = process.env.BENCH_DRAIN_SECONDS ?? '2';

const database = await createBenchDatabase();
const { restaurant, auth } = await seedUnlimitedKey(database.db, ['menu:read', 'assets:read', 'concierge:chat']);
const { idOf } = await seedItems(database.db, restaurant.id, 200);
await sql`update restaurants set concierge_addon = true, concierge_enabled = true, concierge_allowance = 2000000000 where id = ${restaurant.id}`.execute(
  database.db,
);
// Each turn streams for about a second: restarts land in the middle of streams.
const model = await startFakeOpenAI({ tokens: Array.from({ length: 20 }, (_, i) => `word${i} `), delayMs: 50 });

// Services between services (kube-proxy retries nothing); the ingress in front of the gateways sends a
// failed GET to the next replica, as ingress-nginx does.
const balancer = (retry = false) => ServiceBalancer.start({ pollMs: ROUTING_LAG_MS, retry });
const balancers = {
  catalog: await balancer(),
  webhooks: await balancer(),
  concierge: await balancer(),
  console: await balancer(),
  gateway: await balancer(true),
};
const env = {
  ...platformEnvironment(database.url, benchRedisUrl),
  CATALOG_URL: balancers.catalog.url,
  WEBHOOKS_URL: balancers.webhooks.url,
  CONCIERGE_URL: balancers.concierge.url,
  OPENAI_API_KEY: 'sk-bench',
  OPENAI_BASE_URL: model.baseURL,
  SHUTDOWN_DRAIN_SECONDS: DRAIN_SECONDS,
  CLIENT_PER_MIN: '1000000000',
};

interface Replica {
  process: ChildProcess;
  url: string;
}

async function startReplica(service: ServiceName): Promise<Replica> {
  const port = await freePort();
  const child = startProcess(
    mainOf(service),
    { ...env, [PORT_VARIABLE[service]]: String(port) },
    { logTo: LOG_DIR ? `${LOG_DIR}/${service}-${port}.log` : undefined },
  );
  const replica = { process: child, url: `http://127.0.0.1:${port}` };
  await balancers[service].add(replica.url);
  await balancers[service].whenAllReady(30_000);
  return replica;
}

/** SIGTERM, as Kubernetes sends it; resolves once the process has exited (it drains first). */
async function stopReplica(service: ServiceName, replica: Replica): Promise<number> {
  const started = performance.now();
  const exited = once(replica.process, 'exit');
  replica.process.kill('SIGTERM');
  await exited;
  balancers[service].remove(replica.url);
  return performance.now() - started;
}

const replicaCounts: Record<ServiceName, number> = { console: 1, webhooks: 2, catalog: 2, concierge: 2, gateway: 2 };
const replicas = {} as Record<ServiceName, Replica[]>;
for (const service of ['console', 'webhooks', 'catalog', 'concierge', 'gateway'] as const) {
  replicas[service] = [];
  for (let i = 0; i < replicaCounts[service]; i++) replicas[service].push(await startReplica(service));
}
const ingress = balancers.gateway.url;

/** Concierge turns one after another until `until`: a stream without its `done` event is cut. */
async function streamTurns(until: () => boolean, tally: { completed: number; cut: string[] }): Promise<void> {
  while (!until()) {
    try {
      const res = await fetch(`${ingress}/v1/partner/restaurants/${restaurant.id}/concierge/chat`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ message: 'Anything with salmon?' }),
      });
      const text = await res.text();
      if (res.status === 200 && text.includes('event: done')) tally.completed++;
      else tally.cut.push(`${res.status}: ${text.slice(-200)}`);
    } catch (err) {
      tally.cut.push(err instanceof Error ? err.message : String(err));
    }
  }
}

const restarts: { service: ServiceName; stopMs: number }[] = [];
const RESTART_ORDER = ['catalog', 'webhooks', 'concierge', 'console', 'gateway'] as const;
const restartPlan = RESTART_ORDER.flatMap((service) => replicas[service].map((_replica, i) => `${service} replica ${i + 1}`));
const failures: string[] = [];
/** A failed answer, named by route, status, request id and error body, with the restart under way. */
function recordFailure(route: string) {
  return (status: number, body: string, _context: object, headers?: IncomingHttpHeaders) => {
    if (status < 400) return;
    const during = restarts.length < restartPlan.length ? `while restarting ${restartPlan[restarts.length]}` : 'after the restarts';
    failures.push(`${route} HTTP ${status} ${during} (${String(headers?.['x-request-id'] ?? 'no request id')}): ${body.slice(0, 300)}`);
  };
}
let restarting = true;
const streams = { completed: 0, cut: [] as string[] };
const streaming = Promise.all(Array.from({ length: STREAM_CLIENTS }, () => streamTurns(() => !restarting, streams)));
let loadDone: (result: autocannon.Result) => void = () => {};
const loaded = new Promise<autocannon.Result>((resolve) => (loadDone = resolve));
const load = autocannon(
  {
    url: ingress,
    connections: 20,
    duration: 3600,
    requests: [
      { method: 'GET', path: `/v1/partner/items/${idOf(7)}`, headers: auth, onResponse: recordFailure('item detail') },
      { method: 'GET', path: '/v1/partner/me', headers: auth, onResponse: recordFailure('/me') },
    ],
  },
  (err, result) => (err ? failures.push(err.message) : loadDone(result)),
);
load.on('reqError', (err) => failures.push(err.message));

for (const service of RESTART_ORDER) {
  for (let i = 0; i < replicas[service].length; i++) {
    const fresh = await startReplica(service);
    const old = replicas[service][i]!;
    replicas[service][i] = fresh;
    restarts.push({ service, stopMs: await stopReplica(service, old) });
  }
}
restarting = false;
load.stop();
const result = await loaded;
await streaming;

const requests = result.requests.total;
const failed = failures.length + result.errors + result.timeouts;
console.log(
  `\nRolling restart: ${restarts.length} replicas replaced one by one (SIGTERM, drain ${DRAIN_SECONDS} s, routing lag ${ROUTING_LAG_MS} ms)`,
);
console.log(`| measure | figure |\n|---|---|`);
console.log(`| requests through the ingress (item detail and /me, 20 connections) | ${requests.toLocaleString('en-US')} |`);
console.log(`| failed requests (errors, timeouts, 4xx/5xx) | ${failed} |`);
console.log(`| concierge streams completed | ${streams.completed} |`);
console.log(`| concierge streams cut short | ${streams.cut.length} |`);
for (const service of new Set(restarts.map((restart) => restart.service))) {
  const times = restarts.filter((restart) => restart.service === service).map((restart) => `${Math.round(restart.stopMs)} ms`);
  console.log(`| ${service}: SIGTERM to exit | ${times.join(', ')} |`);
}
if (failures.length) console.log(`\nfirst failures: ${[...new Set(failures)].slice(0, 5).join('; ')}`);
if (streams.cut.length) console.log(`\nfirst cut streams: ${streams.cut.slice(0, 3).join('\n')}`);

await stopProcesses(Object.values(replicas).flatMap((list) => list.map((replica) => replica.process)));
await Promise.all(Object.values(balancers).map((balancer) => balancer.close()));
await model.close();
await database.drop();
process.exitCode = failed === 0 && streams.cut.length === 0 ? 0 : 1;
