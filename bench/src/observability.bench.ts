// pnpm bench:observability: what metrics and access logs cost (issue 19). A plain pair (a catalog and
// the gateway in front of it) and an observed pair (metrics kept, access lines for every error and for
// successes as the manifests sample them, or as BENCH_ACCESS_LOG_SUCCESS_SAMPLE says; tracing off),
// each service a process of its own as deployed, all four on core 0 and started alike (startProcess's
// `alike`). `/me`, item detail and a full sync of BENCH_ITEMS items, all through the gateway, run
// against one pair then the other, many times over, while this load generator runs on core 1; each
// run reads its pair's CPU time (/proc). BENCH_CONTROL=1 runs both pairs plain: the spread the bound
// is read against.
import type { ChildProcess } from 'node:child_process';
import { sql } from 'kysely';
import {
  benchRedisUrl,
  cpuSeconds,
  createBenchDatabase,
  formatRate,
  measureHttp,
  median,
  observedEnvironment,
  pinToCore,
  reportMeasures,
  seedUnlimitedKey,
  startProcess,
  stopProcesses,
  waitUntilUp,
} from '@partner/bench-kit';
import { platformEnvironment, seedItems } from '@partner/testing';
import { mainOf } from './services.js';

const ITEMS = Number(process.env.BENCH_ITEMS ?? 10_000);
/** Fresh processes each round; in each, every measure runs TURNS times against each pair, alternating. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const TURNS = Number(process.env.BENCH_TURNS ?? 5);
const DURATION_S = Number(process.env.BENCH_DURATION ?? 2);
/** Unmeasured turns of 2 s a measure and pair before a round's turns. */
const WARMUP_TURNS = Number(process.env.BENCH_WARMUP_TURNS ?? 2);
const PAGE = 1000;
/** The issue's bound: observed within 5 % of plain. */
const MIN_RATIO = 0.95;
/** An A/A run: the "observed" pair is plain too, to show the spread the bound is read against. */
const CONTROL = process.env.BENCH_CONTROL === '1';
/** Which services of the observed pair observe (`gateway,catalog`): where a cost comes from. */
const OBSERVED_SERVICES = (process.env.BENCH_OBSERVED_SERVICES ?? 'gateway,catalog').split(',');

/** `1`: every success; `0.1`: one in ten. */
const describeSample = (sample: string) => (Number(sample) === 1 ? 'every success' : `successes sampled at ${sample}`);

const database = await createBenchDatabase();
const { restaurant, auth } = await seedUnlimitedKey(database.db, ['menu:read', 'assets:read']);
const { idOf } = await seedItems(database.db, restaurant.id, ITEMS);
await sql`analyze items`.execute(database.db);
const environment = {
  ...platformEnvironment(database.url, benchRedisUrl),
  MENU_MAX_ITEMS: String(ITEMS),
  SHUTDOWN_DRAIN_SECONDS: '0',
};
type Setup = 'plain' | 'observed';
const SETUPS: Setup[] = ['plain', 'observed'];

/** A setup's catalog and gateway processes, and its gateway's base URL. */
interface Pair {
  processes: ChildProcess[];
  base: string;
}

/**
 * Each setup's catalog and gateway, a process each as deployed, all four on core 0 and started alike.
 * Odd rounds swap the setups' ports and which starts first.
 */
async function startPairs(round: number): Promise<Record<Setup, Pair>> {
  const order = round % 2 === 1 ? [...SETUPS].reverse() : SETUPS;
  const pairs = {} as Record<Setup, Pair>;
  for (const [index, setup] of order.entries()) {
    const gatewayPort = 18180 + 100 * index;
    const catalogPort = gatewayPort + 1;
    const options = (service: 'gateway' | 'catalog') => ({
      observed: setup === 'observed' && !CONTROL && OBSERVED_SERVICES.includes(service),
      alike: true,
    });
    const catalog = startProcess(mainOf('catalog'), { ...environment, CATALOG_PORT: String(catalogPort) }, options('catalog'));
    const gateway = startProcess(
      mainOf('gateway'),
      { ...environment, GATEWAY_PORT: String(gatewayPort), CATALOG_URL: `http://127.0.0.1:${catalogPort}` },
      options('gateway'),
    );
    pairs[setup] = { processes: [catalog, gateway], base: `http://127.0.0.1:${gatewayPort}/v1/partner` };
  }
  await Promise.all(SETUPS.map((setup) => waitUntilUp(`${pairs[setup].base}/restaurants`, auth)));
  await Promise.all(SETUPS.flatMap((setup) => pairs[setup].processes.map((child) => pinToCore(child, 0))));
  return pairs;
}

/** A full sync as a client runs it: follow nextCursor until null. */
async function sync(base: string): Promise<{ items: number; seconds: number }> {
  const started = performance.now();
  let items = 0;
  let cursor: string | null = null;
  do {
    const res = await fetch(
      `${base}/restaurants/${restaurant.id}/items?limit=${PAGE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      { headers: auth },
    );
    if (!res.ok) throw new Error(`sync page failed: ${res.status} ${await res.text()}`);
    const page = (await res.json()) as { data: unknown[]; meta: { nextCursor: string | null } };
    items += page.data.length;
    cursor = page.meta.nextCursor;
  } while (cursor);
  if (items !== ITEMS) throw new Error(`synced ${items} of ${ITEMS}`);
  return { items, seconds: (performance.now() - started) / 1000 };
}

/** One run: its rate (requests or items a second) and the servers' CPU time per request or item. */
interface Run {
  rate: number;
  cpuMicros: number;
  errors: number;
}

const MEASURES = {
  me: { name: '`/me` through the gateway', unit: 'req/s' },
  item: { name: 'item detail through the gateway', unit: 'req/s' },
  sync: { name: `full sync through the gateway, ${ITEMS.toLocaleString('en-US')} items, pages of ${PAGE}`, unit: 'items/s' },
} as const;
type MeasureName = keyof typeof MEASURES;
/** `BENCH_MEASURES=item` (or `me,sync`...): only those. */
const MEASURE_NAMES = (process.env.BENCH_MEASURES?.split(',') ?? Object.keys(MEASURES)) as MeasureName[];
const unknownMeasure = MEASURE_NAMES.find((name) => !(name in MEASURES));
if (unknownMeasure) throw new Error(`BENCH_MEASURES: no measure ${unknownMeasure} (${Object.keys(MEASURES).join(', ')})`);

async function run({ base, processes }: Pair, measure: MeasureName, durationSeconds: number): Promise<Run> {
  const cpuBefore = await cpuSeconds(processes);
  let done: { rate: number; count: number; errors: number };
  if (measure === 'sync') {
    // Enough syncs to take about as long as an HTTP run.
    let items = 0;
    let seconds = 0;
    while (seconds < durationSeconds / 2) {
      const one = await sync(base);
      items += one.items;
      seconds += one.seconds;
    }
    done = { rate: items / seconds, count: items, errors: 0 };
  } else {
    const figures = await measureHttp(measure === 'me' ? `${base}/me` : `${base}/items/${idOf(1)}`, { headers: auth, durationSeconds });
    done = { rate: figures.rps, count: figures.requests, errors: figures.errors };
  }
  const cpu = (await cpuSeconds(processes)) - cpuBefore;
  return { rate: done.rate, cpuMicros: (cpu * 1e6) / done.count, errors: done.errors };
}

/** Per measure, each turn's plain and observed runs, side by side. */
const turnsOf = new Map(MEASURE_NAMES.map((measure) => [measure, [] as Record<Setup, Run>[]]));
let turnsRun = 0;
for (let round = 0; round < ROUNDS; round++) {
  const pairs = await startPairs(round);
  // Warm both pairs, turn about (JIT, pools, caches): loaded one at a time, a pair's item detail was
  // still speeding up after 16 s (6.8k to 15k requests in 2 s).
  for (let turn = 0; turn < WARMUP_TURNS; turn++)
    for (const setup of SETUPS) for (const measure of MEASURE_NAMES) await run(pairs[setup], measure, 2);
  for (let turn = 0; turn < TURNS; turn++, turnsRun++)
    for (const measure of MEASURE_NAMES) {
      const paired = {} as Record<Setup, Run>;
      // Each turn starts with the other pair, across rounds too.
      for (const setup of turnsRun % 2 ? [...SETUPS].reverse() : SETUPS) paired[setup] = await run(pairs[setup], measure, DURATION_S);
      turnsOf.get(measure)!.push(paired);
    }
  await stopProcesses(SETUPS.flatMap((setup) => pairs[setup].processes));
}

/** The median and quartiles of the turns' observed-to-plain ratios (interpolated between neighbours). */
function spread(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => {
    const position = q * (sorted.length - 1);
    const below = Math.floor(position);
    return sorted[below]! + (sorted[Math.min(below + 1, sorted.length - 1)]! - sorted[below]!) * (position - below);
  };
  return { median: at(0.5), low: at(0.25), high: at(0.75) };
}
const describeRatio = ({ median, low, high }: ReturnType<typeof spread>) =>
  `${median.toFixed(3)}x (quartiles ${low.toFixed(3)}–${high.toFixed(3)})`;

function summary(measure: MeasureName) {
  const turns = turnsOf.get(measure)!;
  const of = (setup: Setup) => ({
    rate: median(turns.map((t) => t[setup].rate)),
    cpuMicros: median(turns.map((t) => t[setup].cpuMicros)),
    errors: turns.reduce((n, t) => n + t[setup].errors, 0),
  });
  return {
    plain: of('plain'),
    observed: of('observed'),
    throughput: spread(turns.map((t) => t.observed.rate / t.plain.rate)),
    // Plain's CPU over observed's: like throughput, 1 is free and lower costs more.
    cpu: spread(turns.map((t) => t.plain.cpuMicros / t.observed.cpuMicros)),
  };
}
const describe = (figures: ReturnType<typeof summary>['plain'], unit: string) =>
  `${formatRate(figures.rate, unit)}, ${figures.cpuMicros.toFixed(1)} µs of server CPU each`;

reportMeasures(
  `Observability overhead${CONTROL ? ' (A/A control: both pairs plain)' : ''}: metrics and access lines (every error, ${describeSample(observedEnvironment().ACCESS_LOG_SUCCESS_SAMPLE!)}), against the same services plain, each service a process of its own; ${ROUNDS} rounds × ${TURNS} turns of ${DURATION_S} s a measure and pair (medians of the turns' ratios)`,
  MEASURE_NAMES.map((measure) => {
    const figures = summary(measure);
    return {
      measure: `${MEASURES[measure].name}, observed`,
      figure: `${describe(figures.observed, MEASURES[measure].unit)}; CPU ratio ${describeRatio(figures.cpu)}`,
      baseline: `plain: ${describe(figures.plain, MEASURES[measure].unit)}`,
      ratio: describeRatio(figures.throughput),
      target: `≥ ${MIN_RATIO}x`,
      met: figures.throughput.median >= MIN_RATIO && figures.observed.errors === 0 && figures.plain.errors === 0,
    };
  }),
);

await database.drop();
