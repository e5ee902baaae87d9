// pnpm bench:catalog — full sync of 100,000 items through the gateway against the same keyset query
// run straight against Postgres, and item detail latency at 50 connections through the gateway against
// the same request sent straight to the catalog (the gateway hop's share) and the same JSON from a bare server.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { generateInternalKeyPair, INTERNAL_TOKEN_HEADER, type KeyPrincipal, signInternalToken } from '@partner/auth';
import { closeSyncWindow, listItemsInWindow } from '@partner/db';
import {
  benchRedisUrl,
  createBenchDatabase,
  measureHttp,
  median,
  medianFigures,
  pinToCore,
  seedUnlimitedKey,
  startBareJsonServer,
  startBareProxy,
  startProcess,
  stopProcesses,
  waitUntilUp,
  type HttpFigures,
} from '@partner/bench-kit';

const ITEMS = Number(process.env.BENCH_ITEMS ?? 100_000);
const PAGE = 1000;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const DURATION_S = Number(process.env.BENCH_DURATION ?? 8);
const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

const database = await createBenchDatabase();
const scopes: KeyPrincipal['scopes'] = ['menu:read', 'assets:read'];
const { restaurant, keyId, auth } = await seedUnlimitedKey(database.db, scopes);
const hash = 'a'.repeat(64);
await sql`
  insert into items (id, restaurant_id, slug, name, description, price_cents, status, dietary_tags, allergens,
                     model_status, model_glb_key, model_usdz_key, model_thumbnail_key, created_at, updated_at)
  select 'itm_bench' || lpad(n::text, 12, '0'), ${restaurant.id}, 'dish-' || n, 'Dish number ' || n,
         'A generous plate of something good, number ' || n, 500 + n % 5000, 'published',
         array['vegetarian'], array['milk', 'gluten'],
         'ready', ${`${hash}.glb`}, ${`${hash}.usdz`}, ${`${hash}.png`},
         now() - make_interval(secs => (${ITEMS} - n) / 1000.0), now() - make_interval(secs => (${ITEMS} - n) / 1000.0)
  from generate_series(1, ${ITEMS}) as n
`.execute(database.db);
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

const detailPath = `/v1/partner/items/itm_bench${String(Math.floor(ITEMS / 2)).padStart(12, '0')}`;
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
// The floor: the same answer from a server that does nothing else, on the same core.
const detailBody = await (await fetch(`http://127.0.0.1:18080${detailPath}`, { headers: auth })).json();
const bare = startBareJsonServer(18090, detailBody);
await waitUntilUp('http://127.0.0.1:18090/');
if (!process.env.BENCH_NO_PIN) await pinToCore(bare, 0);
await measureHttp(`http://127.0.0.1:18090${detailPath}`, { durationSeconds: 2 });

/**
 * The hop itself: the least a proxy can do, in front of the same catalog, on the gateway's core. Started
 * afresh per round with a fresh internal token (tokens live a minute).
 */
async function measureBareProxy(): Promise<HttpFigures> {
  const proxy = startBareProxy(18070, 'http://127.0.0.1:18081', asTheGatewayForwards());
  try {
    await waitUntilUp(`http://127.0.0.1:18070${detailPath}`);
    if (!process.env.BENCH_NO_PIN) await pinToCore(proxy, 0);
    await measureHttp(`http://127.0.0.1:18070${detailPath}`, { durationSeconds: 1 });
    return await measureHttp(`http://127.0.0.1:18070${detailPath}`, { durationSeconds: DURATION_S });
  } finally {
    await stopProcesses([proxy]);
  }
}
const detailRuns: HttpFigures[] = [];
const bareProxyRuns: HttpFigures[] = [];
const directDetailRuns: HttpFigures[] = [];
const bareRuns: HttpFigures[] = [];
for (let round = 0; round < ROUNDS; round++) {
  detailRuns.push(await measureHttp(`http://127.0.0.1:18080${detailPath}`, { headers: auth, durationSeconds: DURATION_S }));
  bareProxyRuns.push(await measureBareProxy());
  directDetailRuns.push(
    await measureHttp(`http://127.0.0.1:18081${detailPath}`, { headers: asTheGatewayForwards(), durationSeconds: DURATION_S }),
  );
  bareRuns.push(await measureHttp(`http://127.0.0.1:18090${detailPath}`, { durationSeconds: DURATION_S }));
}
const detail = medianFigures(detailRuns);
const bareProxyDetail = medianFigures(bareProxyRuns);
const directDetail = medianFigures(directDetailRuns);
const bareDetail = medianFigures(bareRuns);

console.log(`\nCatalog, ${ITEMS} items, pages of ${PAGE}, ${ROUNDS} rounds (medians), Node ${process.version}`);
console.log('| measure | figure |');
console.log('|---|---|');
console.log(`| full sync through the gateway | ${Math.round(syncRate)} items/s |`);
console.log(`| same keyset query straight against Postgres (baseline) | ${Math.round(directRate)} items/s |`);
console.log(`| ratio | ${(syncRate / directRate).toFixed(2)} |`);
console.log(
  `| item detail through the gateway, 50 connections | ${Math.round(detail.rps)} req/s, p50 ${detail.p50} ms, p99 ${detail.p99} ms, ${detail.errors} errors |`,
);
console.log(
  `| same request through a bare undici proxy in front of the catalog (baseline: the hop alone) | ${Math.round(bareProxyDetail.rps)} req/s, p50 ${bareProxyDetail.p50} ms, p99 ${bareProxyDetail.p99} ms, ${bareProxyDetail.errors} errors |`,
);
console.log(
  `| same request straight to the catalog (baseline) | ${Math.round(directDetail.rps)} req/s, p50 ${directDetail.p50} ms, p99 ${directDetail.p99} ms, ${directDetail.errors} errors |`,
);
console.log(
  `| the same JSON from a bare node:http server (this machine's floor) | ${Math.round(bareDetail.rps)} req/s, p50 ${bareDetail.p50} ms, p99 ${bareDetail.p99} ms, ${bareDetail.errors} errors |`,
);
console.log(
  `\ntargets: sync >= 20000 items/s (${syncRate >= 20_000 ? 'met' : 'MISSED'}), ratio >= 0.30 (${syncRate / directRate >= 0.3 ? 'met' : 'MISSED'}), detail p99 <= 15 ms (${detail.p99 <= 15 ? 'met' : 'MISSED'})`,
);

await stopProcesses([gateway, catalog, bare]);
await rm(assetDir, { recursive: true, force: true });
await database.drop();
