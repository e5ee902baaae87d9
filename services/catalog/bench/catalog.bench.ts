// pnpm bench:catalog: over one restaurant of 100,000 items (BENCH_ITEMS), a full sync through the gateway
// against the same keyset query straight against Postgres; item detail at 50 connections through the
// gateway against a bare undici proxy in front of the same catalog (the hop alone); the menu's 304 against
// item detail, its cached 200 against the same bytes from a bare node:http server, and its build against
// the full sync.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { generateInternalKeyPair, INTERNAL_TOKEN_HEADER, type KeyPrincipal, signInternalToken } from '@partner/auth';
import { closeSyncWindow, listItemsInWindow } from '@partner/db';
import {
  benchRedisUrl,
  createBenchDatabase,
  formatHttpFigures,
  formatRate,
  measureHttp,
  median,
  medianFigures,
  pinToCore,
  reportMeasures,
  seedUnlimitedKey,
  startBareProxy,
  startProcess,
  stopProcesses,
  waitUntilUp,
  type HttpFigures,
  type Measure,
} from '@partner/bench-kit';
import { seedItems } from '@partner/testing';

const ITEMS = Number(process.env.BENCH_ITEMS ?? 100_000);
const PAGE = 1000;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const DURATION_S = Number(process.env.BENCH_DURATION ?? 8);
const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

const database = await createBenchDatabase();
const scopes: KeyPrincipal['scopes'] = ['menu:read', 'assets:read'];
const { restaurant, keyId, auth } = await seedUnlimitedKey(database.db, scopes);
const { idOf } = await seedItems(database.db, restaurant.id, ITEMS);
await sql`analyze items`.execute(database.db);

const jwt = generateInternalKeyPair();
const assetDir = await mkdtemp(join(tmpdir(), 'ptr-bench-assets-'));
const common = {
  DATABASE_URL: database.url,
  REDIS_URL: benchRedisUrl,
  REDIS_KEY_PREFIX: `bench${randomBytes(3).toString('hex')}:`,
  LOG_LEVEL: 'warn',
};
const catalog = startProcess(here('../dist/main.js'), {
  ...common,
  CATALOG_PORT: '18081',
  INTERNAL_JWT_PUBLIC_KEY: jwt.publicKey,
  CURSOR_SIGNING_SECRET: randomBytes(32).toString('hex'),
  ASSET_SIGNING_SECRET: randomBytes(32).toString('hex'),
  ASSET_STORAGE_DIR: assetDir,
  MENU_PAGE_KEY_SECRET: randomBytes(32).toString('hex'),
  VIEW_TOKEN_SECRET: randomBytes(32).toString('hex'),
  // The whole restaurant as one menu, kept: the bench measures the menu at its item count.
  MENU_MAX_ITEMS: String(ITEMS),
  MENU_CACHE_MAX_BYTES: String(1024 * 1024 * 1024),
});
const gateway = startProcess(here('../../gateway/dist/main.js'), {
  ...common,
  GATEWAY_PORT: '18080',
  CATALOG_URL: 'http://127.0.0.1:18081',
  INTERNAL_JWT_PRIVATE_KEY: jwt.privateKey,
});
const base = 'http://127.0.0.1:18080/v1/partner';
await waitUntilUp(`${base}/restaurants`, auth);
// BENCH_NO_PIN=1 leaves the servers to the scheduler (the load generator stays on core 1).
if (!process.env.BENCH_NO_PIN) await Promise.all([pinToCore(catalog, 0), pinToCore(gateway, 0)]);

/** A full sync as a client runs it: follow nextCursor until null. */
async function syncThroughGateway(): Promise<{ items: number; seconds: number }> {
  const started = performance.now();
  let items = 0;
  let cursor: string | null = null;
  do {
    const url = `${base}/restaurants/${restaurant.id}/items?limit=${PAGE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const res = await fetch(url, { headers: auth });
    if (!res.ok) throw new Error(`sync page failed: ${res.status} ${await res.text()}`);
    const page = (await res.json()) as { data: unknown[]; meta: { nextCursor: string | null } };
    items += page.data.length;
    cursor = page.meta.nextCursor;
  } while (cursor);
  return { items, seconds: (performance.now() - started) / 1000 };
}

/** The same keyset pages straight from Postgres, rows only. */
async function syncDirect(): Promise<{ items: number; seconds: number }> {
  const started = performance.now();
  const windowEnd = await closeSyncWindow(database.db, restaurant.id);
  let items = 0;
  let after: { updatedAt: Date; id: string } | null = null;
  for (;;) {
    const rows = await listItemsInWindow(database.db, {
      restaurantId: restaurant.id,
      windowStart: null,
      windowEnd,
      status: null,
      after,
      limit: PAGE,
    });
    items += rows.length;
    const last = rows.at(-1);
    if (rows.length < PAGE || !last) break;
    after = { updatedAt: last.updated_at, id: last.id };
  }
  return { items, seconds: (performance.now() - started) / 1000 };
}

await syncThroughGateway();
await syncDirect();
const gatewayRates: number[] = [];
const directRates: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  const direct = await syncDirect();
  const through = await syncThroughGateway();
  if (through.items !== ITEMS || direct.items !== ITEMS) throw new Error(`synced ${through.items} / ${direct.items} of ${ITEMS}`);
  directRates.push(direct.items / direct.seconds);
  gatewayRates.push(through.items / through.seconds);
}
const syncRate = median(gatewayRates);
const directRate = median(directRates);

const detailPath = `/v1/partner/items/${idOf(Math.floor(ITEMS / 2))}`;
const principal: KeyPrincipal = {
  kind: 'key',
  keyId,
  keyType: 'secret',
  environment: 'live',
  scopes,
  owner: { kind: 'restaurant', id: restaurant.id },
};
/** What the gateway adds to a request it forwards; signed afresh per run, as tokens live a minute. */
const asTheGatewayForwards = () => ({
  [INTERNAL_TOKEN_HEADER]: signInternalToken(jwt.privateKey, principal, 'catalog'),
  'x-request-id': 'req_benchdirect',
});
await measureHttp(`http://127.0.0.1:18080${detailPath}`, { headers: auth, durationSeconds: 2 });

/**
 * One round of item detail: through the gateway, and through the hop itself (the least a proxy can do,
 * in front of the same catalog, on the gateway's core), back to back, the order alternating between
 * rounds. The proxy is started afresh per round with a fresh internal token (tokens live a minute).
 */
async function itemDetailRound(round: number): Promise<{ gateway: HttpFigures; bareProxy: HttpFigures }> {
  const proxy = startBareProxy(18070, 'http://127.0.0.1:18081', asTheGatewayForwards());
  try {
    await waitUntilUp(`http://127.0.0.1:18070${detailPath}`);
    if (!process.env.BENCH_NO_PIN) await pinToCore(proxy, 0);
    await measureHttp(`http://127.0.0.1:18070${detailPath}`, { durationSeconds: 1 });
    const throughGateway = () => measureHttp(`http://127.0.0.1:18080${detailPath}`, { headers: auth, durationSeconds: DURATION_S });
    const throughBareProxy = () => measureHttp(`http://127.0.0.1:18070${detailPath}`, { durationSeconds: DURATION_S });
    if (round % 2) {
      const bareProxy = await throughBareProxy();
      return { gateway: await throughGateway(), bareProxy };
    }
    const gateway = await throughGateway();
    return { gateway, bareProxy: await throughBareProxy() };
  } finally {
    await stopProcesses([proxy]);
  }
}
const detailRounds: Awaited<ReturnType<typeof itemDetailRound>>[] = [];
for (let round = 0; round < ROUNDS; round++) detailRounds.push(await itemDetailRound(round));
const detail = medianFigures(detailRounds.map((pair) => pair.gateway));
const bareProxyDetail = medianFigures(detailRounds.map((pair) => pair.bareProxy));
// The ratios are the medians of the rounds' own: each round's two runs saw the same machine.
const detailRatio = median(detailRounds.map((pair) => pair.gateway.rps / pair.bareProxy.rps));
const detailP99Ratio = median(detailRounds.map((pair) => pair.gateway.p99 / pair.bareProxy.p99));

interface Timed {
  /** Requests per second over the run, and latency percentiles in ms. */
  rps: number;
  p50: number;
  p99: number;
}

/**
 * `connections` clients, each sending the request again as soon as its answer has been read whole, for
 * `seconds`; every answer must have `status`. (autocannon counts a 304 as an error.)
 */
async function timeRequests(
  url: string,
  headers: Record<string, string>,
  status: number,
  connections: number,
  seconds: number,
): Promise<Timed> {
  const latencies: number[] = [];
  const until = performance.now() + seconds * 1000;
  const client = async () => {
    while (performance.now() < until) {
      const started = performance.now();
      const res = await fetch(url, { headers });
      await res.arrayBuffer();
      if (res.status !== status) throw new Error(`${url} answered ${res.status}, not ${status}`);
      latencies.push(performance.now() - started);
    }
  };
  await Promise.all(Array.from({ length: connections }, client));
  latencies.sort((a, b) => a - b);
  const at = (q: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]! * 10) / 10;
  return { rps: latencies.length / seconds, p50: at(0.5), p99: at(0.99) };
}
const medianTimed = (runs: Timed[]): Timed => ({
  rps: median(runs.map((r) => r.rps)),
  p50: median(runs.map((r) => r.p50)),
  p99: median(runs.map((r) => r.p99)),
});

// The menu: built once (timed against a full sync of the same items), then its 304 and its cached 200.
const menuUrl = `${base}/restaurants/${restaurant.id}/menu`;
const buildStarted = performance.now();
const firstMenu = await fetch(menuUrl, { headers: auth });
const menuBytes = Buffer.from(await firstMenu.arrayBuffer());
const buildSeconds = (performance.now() - buildStarted) / 1000;
if (firstMenu.status !== 200) throw new Error(`the menu answered ${firstMenu.status}: ${menuBytes.toString().slice(0, 300)}`);
const menuEtag = firstMenu.headers.get('etag')!;
const syncSeconds = ITEMS / syncRate;

const bodyFile = join(assetDir, 'menu.json');
await writeFile(bodyFile, menuBytes);
const bareBytes = startProcess(here('./bare-bytes-server.ts'), { PORT: '18091', BODY_FILE: bodyFile });
await waitUntilUp('http://127.0.0.1:18091/');
if (!process.env.BENCH_NO_PIN) await pinToCore(bareBytes, 0);

const CONNECTIONS_304 = 50;
// Warm both paths first, as the other measures are.
await timeRequests(menuUrl, { ...auth, 'if-none-match': menuEtag }, 304, CONNECTIONS_304, 1);
await timeRequests(menuUrl, auth, 200, 1, 1);
const menu304Runs: Timed[] = [];
const detailLoopRuns: Timed[] = [];
const menu200Runs: Timed[] = [];
const bareBytesRuns: Timed[] = [];
for (let round = 0; round < ROUNDS; round++) {
  menu304Runs.push(await timeRequests(menuUrl, { ...auth, 'if-none-match': menuEtag }, 304, CONNECTIONS_304, DURATION_S));
  detailLoopRuns.push(await timeRequests(`http://127.0.0.1:18080${detailPath}`, auth, 200, CONNECTIONS_304, DURATION_S));
  menu200Runs.push(await timeRequests(menuUrl, auth, 200, 1, DURATION_S));
  bareBytesRuns.push(await timeRequests('http://127.0.0.1:18091/', {}, 200, 1, DURATION_S));
}
const menu304 = medianTimed(menu304Runs);
const detailLoop = medianTimed(detailLoopRuns);
const menu200 = medianTimed(menu200Runs);
const bareBytesMenu = medianTimed(bareBytesRuns);

const timed = (t: Timed) => `${formatRate(t.rps, 'req/s')}, p50 ${t.p50} ms, p99 ${t.p99} ms`;
const megabytes = (menuBytes.length / 1024 / 1024).toFixed(1);
const measures: Measure[] = [
  {
    measure: `full sync through the gateway, ${ITEMS.toLocaleString('en-US')} items, pages of ${PAGE}`,
    figure: formatRate(syncRate, 'items/s'),
    baseline: `${formatRate(directRate, 'items/s')} (the same keyset query straight against Postgres)`,
    ratio: `${(syncRate / directRate).toFixed(2)}x`,
    target: '≥ 0.50x',
    met: syncRate / directRate >= 0.5,
  },
  {
    measure: 'item detail through the gateway, 50 connections',
    figure: formatHttpFigures(detail),
    baseline: `${formatHttpFigures(bareProxyDetail)} (a bare undici proxy in front of the same catalog)`,
    ratio: `${detailRatio.toFixed(2)}x, p99 ${detailP99Ratio.toFixed(2)}x`,
    target: '≥ 0.90x, p99 ≤ 1.2x the hop’s',
    met: detailRatio >= 0.9 && detailP99Ratio <= 1.2 && detail.errors === 0,
  },
  {
    measure: `menu 304 through the gateway, ${ITEMS.toLocaleString('en-US')} items, ${CONNECTIONS_304} connections`,
    figure: timed(menu304),
    baseline: `${timed(detailLoop)} (item detail, the same client)`,
    ratio: `${(menu304.rps / detailLoop.rps).toFixed(2)}x`,
    target: '≥ 0.90x',
    met: menu304.rps / detailLoop.rps >= 0.9,
  },
  {
    measure: `menu 200 through the gateway, built and kept, ${megabytes} MB, one connection`,
    figure: timed(menu200),
    baseline: `${timed(bareBytesMenu)} (the same bytes from a bare node:http server)`,
    ratio: `${(menu200.rps / bareBytesMenu.rps).toFixed(2)}x`,
    target: '≥ 0.50x',
    met: menu200.rps / bareBytesMenu.rps >= 0.5,
  },
  {
    measure: `menu built afresh through the gateway, ${ITEMS.toLocaleString('en-US')} items`,
    figure: `${Math.round(buildSeconds * 1000)} ms`,
    baseline: `${Math.round(syncSeconds * 1000)} ms (a full sync of the same items through the gateway)`,
    ratio: `${(buildSeconds / syncSeconds).toFixed(2)}x`,
    target: '≤ 1.0x',
    met: buildSeconds <= syncSeconds,
  },
];
reportMeasures(`Catalog, ${ITEMS.toLocaleString('en-US')} items, ${ROUNDS} rounds (medians)`, measures);

await stopProcesses([gateway, catalog, bareBytes]);
await rm(assetDir, { recursive: true, force: true });
await database.drop();
