// pnpm bench:observability: what metrics and access logs cost (issue 19). Two gateway-and-catalog pairs
// on one bench database, one plain and one observed (metrics kept, an access line for every request,
// tracing off), measured in alternating rounds of the same run: `/me`, item detail, and a full sync of
// BENCH_ITEMS items, all through the gateway. Servers on core 0, this load generator on core 1.
import type { ChildProcess } from 'node:child_process';
import { sql } from 'kysely';
import {
  createBenchDatabase,
  formatHttpFigures,
  formatRate,
  type HttpFigures,
  measureHttp,
  median,
  medianFigures,
  pinToCore,
  reportMeasures,
  seedUnlimitedKey,
  startProcess,
  stopProcesses,
  waitUntilUp,
} from '@partner/bench-kit';
import { seedItems } from '@partner/testing';
import { mainOf, platformEnvironment } from './services.js';

const ITEMS = Number(process.env.BENCH_ITEMS ?? 10_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const DURATION_S = Number(process.env.BENCH_DURATION ?? 5);
const PAGE = 1000;
/** The issue's bound: observed within 5 % of plain. */
const MIN_RATIO = 0.95;

const database = await createBenchDatabase();
const { restaurant, auth } = await seedUnlimitedKey(database.db, ['menu:read', 'assets:read']);
const { idOf } = await seedItems(database.db, restaurant.id, ITEMS);
await sql`analyze items`.execute(database.db);
const environment = platformEnvironment(database.url);

type Setup = 'plain' | 'observed';
const SETUPS: Setup[] = ['plain', 'observed'];

/** A gateway and the catalog behind it; `observed` runs both as bench-kit's OBSERVED says. */
async function startPair(observed: boolean, gatewayPort: number): Promise<{ base: string; processes: ChildProcess[] }> {
  const catalogPort = gatewayPort + 1;
  const catalog = startProcess(
    mainOf('catalog'),
    { ...environment, CATALOG_PORT: String(catalogPort), MENU_MAX_ITEMS: String(ITEMS) },
    { observed },
  );
  const gateway = startProcess(
    mainOf('gateway'),
    { ...environment, GATEWAY_PORT: String(gatewayPort), CATALOG_URL: `http://127.0.0.1:${catalogPort}` },
    { observed },
  );
  const base = `http://127.0.0.1:${gatewayPort}/v1/partner`;
  await waitUntilUp(`${base}/restaurants`, auth);
  await Promise.all([pinToCore(catalog, 0), pinToCore(gateway, 0)]);
  return { base, processes: [catalog, gateway] };
}

const pairs = { plain: await startPair(false, 18180), observed: await startPair(true, 18280) };

/** A full sync as a client runs it: follow nextCursor until null; items a second. */
async function syncRate(base: string): Promise<number> {
  const started = performance.now();
  let items = 0;
  let cursor: string | null = null;
  do {
    const res = await fetch(`${base}/restaurants/${restaurant.id}/items?limit=${PAGE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, {
      headers: auth,
    });
    if (!res.ok) throw new Error(`sync page failed: ${res.status} ${await res.text()}`);
    const page = (await res.json()) as { data: unknown[]; meta: { nextCursor: string | null } };
    items += page.data.length;
    cursor = page.meta.nextCursor;
  } while (cursor);
  if (items !== ITEMS) throw new Error(`synced ${items} of ${ITEMS}`);
  return items / ((performance.now() - started) / 1000);
}

const item = (base: string) => `${base}/items/${idOf(1)}`;
const me = (base: string) => `${base}/me`;

// Warm both (JIT, pools, key cache), then alternate so that drift hits both alike.
for (const setup of SETUPS) {
  const { base } = pairs[setup];
  await measureHttp(me(base), { headers: auth, durationSeconds: 2 });
  await measureHttp(item(base), { headers: auth, durationSeconds: 2 });
  await syncRate(base);
}
const runs = Object.fromEntries(SETUPS.map((setup) => [setup, { me: [] as HttpFigures[], item: [] as HttpFigures[], sync: [] as number[] }]));
for (let round = 0; round < ROUNDS; round++) {
  // Each round starts with the other setup: neither always measures on a machine the other warmed.
  for (const setup of round % 2 ? [...SETUPS].reverse() : SETUPS) {
    const { base } = pairs[setup];
    runs[setup]!.me.push(await measureHttp(me(base), { headers: auth, durationSeconds: DURATION_S }));
    runs[setup]!.item.push(await measureHttp(item(base), { headers: auth, durationSeconds: DURATION_S }));
    runs[setup]!.sync.push(await syncRate(base));
  }
}
const plain = runs.plain!;
const observed = runs.observed!;

function httpMeasure(measure: string, off: HttpFigures[], on: HttpFigures[]) {
  const [offFigures, onFigures] = [medianFigures(off), medianFigures(on)];
  const ratio = onFigures.rps / offFigures.rps;
  return {
    measure,
    figure: `observed: ${formatHttpFigures(onFigures)}`,
    baseline: `plain: ${formatHttpFigures(offFigures)}`,
    ratio: `${ratio.toFixed(3)}x`,
    target: `≥ ${MIN_RATIO}x plain`,
    met: ratio >= MIN_RATIO && onFigures.errors === 0 && offFigures.errors === 0,
  };
}
const syncRatio = median(observed.sync) / median(plain.sync);
reportMeasures(`Observability overhead: metrics and access lines on against off, ${ROUNDS} alternating rounds (medians)`, [
  httpMeasure('`/me` through the gateway, observed', plain.me, observed.me),
  httpMeasure('item detail through the gateway, observed', plain.item, observed.item),
  {
    measure: `full sync through the gateway, ${ITEMS.toLocaleString('en-US')} items, observed`,
    figure: `observed: ${formatRate(median(observed.sync), 'items/s')}`,
    baseline: `plain: ${formatRate(median(plain.sync), 'items/s')}`,
    ratio: `${syncRatio.toFixed(3)}x`,
    target: `≥ ${MIN_RATIO}x plain`,
    met: syncRatio >= MIN_RATIO,
  },
]);

await stopProcesses([...pairs.plain.processes, ...pairs.observed.processes]);
await database.drop();
