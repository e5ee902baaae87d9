// `pnpm bench:scale`: what each path costs as the data grows. A restaurant of each of BENCH_SCALE_SIZES
// items (10k, 100k, 1M), measured through the gateway; then a delivery history grown to each of
// BENCH_SCALE_DELIVERIES rows (0, 1M, 10M), the dispatcher measured at each. Targets: from the smallest
// size to the largest, the paths that should not depend on the data's size (304, incremental sync, the
// concierge's warm first delta, deliveries per second) change by less than 2x.
import { benchRedisUrl, createBenchDatabase, formatRate, type Measure, measuresTable, reportMeasures, seedUnlimitedKey } from '@partner/bench-kit';
import { platformEnvironment } from '@partner/testing';
import { recordRun, runEntry } from '../record.js';
import { BURST, deliveryCurve, type DeliveryPoint, FAN_OUT } from './delivery-curve.js';
import { itemCurve, type ItemPoint, TOUCHED } from './item-curve.js';
import { sizeLabel, sizesFrom } from './sizes.js';

const itemSizes = sizesFrom('BENCH_SCALE_SIZES', [10_000, 100_000, 1_000_000]);
const deliverySizes = sizesFrom('BENCH_SCALE_DELIVERIES', [0, 1_000_000, 10_000_000]);

const started = performance.now();
const database = await createBenchDatabase();
let items: ItemPoint[];
let deliveries: DeliveryPoint[];
try {
  const env = platformEnvironment(database.url, benchRedisUrl);
  items = await itemCurve(database, env, itemSizes);
  const { restaurant } = await seedUnlimitedKey(database.db, []);
  deliveries = await deliveryCurve(database, env, restaurant.id, deliverySizes);
} finally {
  await database.drop();
}

const ms = (value: number) => `${value < 10 ? value.toFixed(1) : Math.round(value).toLocaleString('en-US')} ms`;
const mb = (value: number) => `${Math.round(value)} MB`;
const kb = (bytes: number) => (bytes >= 1e6 ? `${(bytes / 1e6).toFixed(1)} MB` : `${Math.round(bytes / 1e3)} kB`);
const menuStatus = (statuses: string[], bytes: number) => (statuses.join() === '200' ? kb(bytes) : statuses.join(', '));
const table = (header: string[], rows: string[][]) =>
  [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((row) => `| ${row.join(' | ')} |`)].join('\n');

const itemTable = table(
  [
    'items',
    'seeded in',
    'full sync',
    `incremental sync (${TOUCHED} changed)`,
    'menu 304 p50',
    'menu 200 first (after a change)',
    'menu 200 p50',
    'concierge first delta, first turn after a change',
    'concierge warm first delta p50',
    'catalog RSS',
    'concierge RSS',
  ],
  items.map((point) => [
    sizeLabel(point.items),
    `${point.seedSeconds.toFixed(1)} s`,
    formatRate(point.fullSync, 'items/s'),
    formatRate(point.incrementalSync, 'items/s'),
    ms(point.menu304),
    `${ms(point.menuFirst.ms)} (${menuStatus([point.menuFirst.code ? `${point.menuFirst.status} ${point.menuFirst.code}` : String(point.menuFirst.status)], point.menuFirst.bytes)})`,
    `${ms(point.menu200.p50)} (${menuStatus(point.menu200.statuses, point.menu200.bytes)}, ${point.menu200.requests} requests)`,
    ms(point.conciergeCold),
    ms(point.conciergeWarm),
    mb(point.catalogRss),
    mb(point.conciergeRss),
  ]),
);
const deliveryTable = table(
  ['delivered rows in history', 'seeded in', `deliveries/s (burst of ${BURST})`, `fan-out to ${FAN_OUT} endpoints p50`, 'webhooks RSS'],
  deliveries.map((point) => [
    sizeLabel(point.rows),
    `${point.seedSeconds.toFixed(1)} s`,
    formatRate(point.perSecond, '/s'),
    ms(point.fanOut),
    mb(point.webhooksRss),
  ]),
);

/** The largest size's figure against the smallest's: flat means less than 2x either way, in the bad direction. */
function flat<P>(
  measure: string,
  points: P[],
  label: (point: P) => string,
  figure: (point: P) => number,
  show: (value: number) => string,
  higherIsBetter: boolean,
): Measure {
  const [smallest, largest] = [points[0]!, points.at(-1)!];
  const ratio = figure(largest) / figure(smallest);
  return {
    measure: `${measure}, ${label(smallest)} → ${label(largest)}`,
    figure: `${show(figure(largest))} at ${label(largest)}`,
    baseline: `${show(figure(smallest))} at ${label(smallest)}`,
    ratio: `${ratio.toFixed(2)}x`,
    target: higherIsBetter ? '> 0.5x (less than 2x slower)' : '< 2x',
    met: higherIsBetter ? ratio > 0.5 : ratio < 2,
  };
}
const itemsLabel = (point: ItemPoint) => `${sizeLabel(point.items)} items`;
const rowsLabel = (point: DeliveryPoint) => `${sizeLabel(point.rows)} rows`;
const measures = [
  flat('menu 304 p50', items, itemsLabel, (p) => p.menu304, ms, false),
  flat(
    `incremental sync (${TOUCHED} changed)`,
    items,
    itemsLabel,
    (p) => p.incrementalSync,
    (v) => formatRate(v, 'items/s'),
    true,
  ),
  flat('concierge warm first delta p50', items, itemsLabel, (p) => p.conciergeWarm, ms, false),
  flat(
    'dispatcher deliveries/s',
    deliveries,
    rowsLabel,
    (p) => p.perSecond,
    (v) => formatRate(v, '/s'),
    true,
  ),
];

const minutes = ((performance.now() - started) / 60_000).toFixed(1);
console.log(`\nScale curves, Node ${process.version}, ${minutes} min\n\n${itemTable}\n\n${deliveryTable}`);
reportMeasures('Scale: flat from the smallest size to the largest', measures);
const summary = `${measures.filter((m) => m.met).length} of ${measures.length} targets met. Whole run ${minutes} min.`;
console.log(summary);
recordRun('`pnpm bench:scale` runs', runEntry(`${itemTable}\n\n${deliveryTable}\n\n${measuresTable(measures)}\n\n${summary}`));
