import { type BenchDatabase, median, startProcess, stopProcesses, waitUntilUp } from '@partner/bench-kit';
import { freePort, startFakeOpenAI } from '@partner/testing';
import { residentMegabytes } from '../rss.js';
import { mainOf } from '../services.js';
import { timeToFirstDelta } from './concierge-turn.js';
import { type Api, getMenu, type MenuAnswer, menuLatency, sync } from './reads.js';
import { seedMenu, type SeededMenu } from './seed.js';

/** Items changed before each incremental sync. */
export const TOUCHED = 300;
const INCREMENTAL_ROUNDS = 15;
const MENU_REQUESTS = 30;
const MENU_BUDGET_MS = 20_000;
const TURNS = 20;
/** Matches items 1 to 100 at every size (seed.ts). */
const QUESTION = 'Anything with saffron?';

export interface ItemPoint {
  items: number;
  seedSeconds: number;
  /** items/s */
  fullSync: number;
  /** items/s of syncs that each pick up TOUCHED changed items, median */
  incrementalSync: number;
  /** p50 ms */
  menu304: number;
  /** The first 200 after the menu changed: built afresh. */
  menuFirst: MenuAnswer;
  menu200: Awaited<ReturnType<typeof menuLatency>>;
  /** ms to the first delta: the first turn after the menu changed, then the median of warm turns. */
  conciergeCold: number;
  conciergeWarm: number;
  catalogRss: number;
  conciergeRss: number;
}

/**
 * Gateway, catalog and concierge (against a local model server), and a restaurant of each of `sizes`
 * items; the figures at each size.
 */
export async function itemCurve(database: BenchDatabase, env: Record<string, string>, sizes: number[]) {
  const model = await startFakeOpenAI({ tokens: ['Hello', ' there.'] });
  const [gatewayPort, catalogPort, conciergePort] = [await freePort(), await freePort(), await freePort()];
  const catalog = startProcess(mainOf('catalog'), { ...env, CATALOG_PORT: String(catalogPort) });
  const concierge = startProcess(mainOf('concierge'), {
    ...env,
    CONCIERGE_PORT: String(conciergePort),
    OPENAI_API_KEY: 'sk-bench',
    OPENAI_BASE_URL: model.baseURL,
  });
  const gateway = startProcess(mainOf('gateway'), {
    ...env,
    GATEWAY_PORT: String(gatewayPort),
    CATALOG_URL: `http://127.0.0.1:${catalogPort}`,
    CONCIERGE_URL: `http://127.0.0.1:${conciergePort}`,
  });
  const base = `http://127.0.0.1:${gatewayPort}`;
  await waitUntilUp(`${base}/healthz`);
  await waitUntilUp(`http://127.0.0.1:${conciergePort}/healthz`);

  /** Every figure at the current size (`seedSeconds` is the caller's). */
  async function measure(menu: SeededMenu, size: number): Promise<Omit<ItemPoint, 'seedSeconds'>> {
    const client: Api = { base, auth: menu.auth, restaurantId: menu.restaurantId };
    const full = await sync(client);
    if (full.items !== size) throw new Error(`a full sync of ${size} items listed ${full.items}`);
    const incremental: number[] = [];
    let after = full.windowEnd;
    for (let round = 0; round < INCREMENTAL_ROUNDS; round++) {
      await menu.touch(TOUCHED);
      const changes = await sync(client, after);
      if (changes.items !== TOUCHED) throw new Error(`an incremental sync after ${TOUCHED} changes listed ${changes.items}`);
      incremental.push(changes.items / changes.seconds);
      after = changes.windowEnd;
    }

    const menuFirst = await getMenu(client);
    const menu200 = await menuLatency(client, MENU_REQUESTS, MENU_BUDGET_MS);
    const menu304 = await menuLatency(client, MENU_REQUESTS, MENU_BUDGET_MS, menuFirst.etag ?? '*');
    if (menu304.statuses.join() !== '304') throw new Error(`the menu with its own ETag answered ${menu304.statuses.join(', ')}, not 304`);

    const conciergeCold = await timeToFirstDelta(client, QUESTION);
    const warm: number[] = [];
    for (let turn = 0; turn < TURNS; turn++) warm.push(await timeToFirstDelta(client, QUESTION));

    return {
      items: size,
      fullSync: full.items / full.seconds,
      incrementalSync: median(incremental),
      menu304: menu304.p50,
      menuFirst,
      menu200,
      conciergeCold,
      conciergeWarm: median(warm),
      catalogRss: residentMegabytes(catalog.pid!),
      conciergeRss: residentMegabytes(concierge.pid!),
    };
  }

  const points: ItemPoint[] = [];
  try {
    for (const [index, size] of sizes.entries()) {
      const seedStarted = performance.now();
      const menu = await seedMenu(database.db, size);
      const seedSeconds = (performance.now() - seedStarted) / 1000;
      // The smallest size is every ratio's baseline: measured once to warm the processes up, then for real.
      if (index === 0) await measure(menu, size);
      points.push({ ...(await measure(menu, size)), seedSeconds });
      console.log(`items: ${size} measured (seeded in ${seedSeconds.toFixed(1)} s)`);
    }
  } finally {
    await stopProcesses([gateway, concierge, catalog]);
    await model.close();
  }
  return points;
}
