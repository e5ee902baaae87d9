import { type BenchDatabase, startProcess, stopProcesses, waitUntilUp } from '@partner/bench-kit';
import { freePort } from '@partner/testing';
import { seedDeliveredHistory } from '@partner/webhooks/testing';
import { residentMegabytes } from '../rss.js';
import { mainOf } from '../services.js';
import { prepareDeliveries } from './deliveries.js';

export const BURST = Number(process.env.BENCH_SCALE_BURST ?? 5000);
/** Endpoints one event fans out to, besides the burst's: with it, the default most one owner may have (16). */
export const FAN_OUT = 15;
const FAN_OUT_ROUNDS = 10;

export interface DeliveryPoint {
  rows: number;
  seedSeconds: number;
  perSecond: number;
  /** ms, median */
  fanOut: number;
  webhooksRss: number;
}

/** The dispatcher (webhooks' dist/main.js) as the delivery history grows to each of `sizes` rows. */
export async function deliveryCurve(database: BenchDatabase, env: Record<string, string>, restaurantId: string, sizes: number[]) {
  const bench = await prepareDeliveries(database.db, restaurantId, env.WEBHOOK_SEALING_KEYS!, FAN_OUT);
  const port = await freePort();
  const webhooks = startProcess(mainOf('webhooks'), { ...env, WEBHOOKS_PORT: String(port), WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
  const points: DeliveryPoint[] = [];
  try {
    await waitUntilUp(`http://127.0.0.1:${port}/healthz`);
    let seeded = 0;
    for (const [index, rows] of sizes.entries()) {
      const seedStarted = performance.now();
      await seedDeliveredHistory(database.db, { endpointId: bench.burstEndpointId, restaurantId, count: rows - seeded });
      const seedSeconds = (performance.now() - seedStarted) / 1000;
      // The smallest size is the ratio's baseline: a first burst warms the dispatcher up.
      if (index === 0) await bench.burst(BURST);
      seeded = rows;
      points.push({
        rows,
        seedSeconds,
        perSecond: await bench.burst(BURST),
        fanOut: await bench.fanOut(FAN_OUT_ROUNDS),
        webhooksRss: residentMegabytes(webhooks.pid!),
      });
      console.log(`delivery rows: ${rows} measured (seeded in ${seedSeconds.toFixed(1)} s)`);
    }
  } finally {
    await stopProcesses([webhooks]);
    await bench.close();
  }
  return points;
}
