// pnpm bench:concierge — time to `meta` and to the first `delta` of a concierge turn through the gateway,
// against a local zero-latency upstream that speaks OpenAI's streaming protocol, beside the same upstream
// called directly; the same turns while another restaurant's 50,000-dish index builds; and retrieval
// time over a 1,000-item menu.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { generateInternalKeyPair } from '@partner/auth';
import {
  benchRedisUrl,
  createBenchDatabase,
  median,
  pinToCore,
  reportMeasures,
  seedUnlimitedKey,
  startProcess,
  stopProcesses,
  waitUntilUp,
} from '@partner/bench-kit';
import { freePort, seedItems } from '@partner/testing';
import { MenuIndex, type MenuEntry } from '../dist/grounding/menu-index.js';
import { MenuIndexBuilder } from '../dist/grounding/menu-index-builder.js';

const TURNS = Number(process.env.BENCH_TURNS ?? 200);
const LARGE_MENU = 50_000;
const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

// The upstream: answers every chat completion at once, a first sentence then a few more words (the
// reply guard lets a sentence go once it ends).
const FIRST_SENTENCE = 'Hello there. ';
const upstream = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const chunk = (content: string) =>
      `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`;
    res.write(chunk(FIRST_SENTENCE));
    res.write(chunk('Enjoy'));
    res.end('data: [DONE]\n\n');
  });
});
await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
const upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/v1`;

const database = await createBenchDatabase();
const { restaurant, auth } = await seedUnlimitedKey(database.db, ['concierge:chat']);
await sql`update restaurants set concierge_addon = true, concierge_enabled = true, concierge_allowance = 2000000000 where id = ${restaurant.id}`.execute(
  database.db,
);
await sql`
  insert into items (id, restaurant_id, slug, name, description, price_cents, status, allergens, dietary_tags)
  select 'itm_bench' || n, ${restaurant.id}, 'dish-' || n, 'Dish ' || n || ' with ' || (array['tomato','basil','salmon','tofu','mushroom'])[1 + n % 5],
         'Slow-cooked, served with seasonal greens', 500 + n, 'published', array['milk'], array['vegetarian']
  from generate_series(1, 1000) as n
`.execute(database.db);
// A second restaurant whose first turn builds a 50,000-dish index while the first one's turns go on.
const large = await seedUnlimitedKey(database.db, ['concierge:chat']);
await sql`update restaurants set concierge_addon = true, concierge_enabled = true, concierge_allowance = 2000000000 where id = ${large.restaurant.id}`.execute(
  database.db,
);
await seedItems(database.db, large.restaurant.id, LARGE_MENU);

// Ports the OS gives: other benchmarks may be running on this machine.
const [gatewayPort, conciergePort] = [await freePort(), await freePort()];
const jwt = generateInternalKeyPair();
const common = {
  DATABASE_URL: database.url,
  REDIS_URL: benchRedisUrl,
  REDIS_KEY_PREFIX: `bench${randomBytes(3).toString('hex')}:`,
  LOG_LEVEL: 'warn',
};
const concierge = startProcess(here('../dist/main.js'), {
  ...common,
  CONCIERGE_PORT: String(conciergePort),
  INTERNAL_JWT_PUBLIC_KEY: jwt.publicKey,
  OPENAI_API_KEY: 'sk-bench',
  OPENAI_BASE_URL: upstreamUrl,
});
const gateway = startProcess(here('../../gateway/dist/main.js'), {
  ...common,
  GATEWAY_PORT: String(gatewayPort),
  CONCIERGE_URL: `http://127.0.0.1:${conciergePort}`,
  INTERNAL_JWT_PRIVATE_KEY: jwt.privateKey,
});
await waitUntilUp(`http://127.0.0.1:${conciergePort}/healthz`);
await waitUntilUp(`http://127.0.0.1:${gatewayPort}/v1/partner/me`, auth);
await Promise.all([pinToCore(concierge, 0), pinToCore(gateway, 0)]);

/** Milliseconds from sending the request to the first byte of `marker` in the stream. */
async function timeTo(url: string, init: RequestInit, markers: string[]): Promise<number[]> {
  const started = performance.now();
  const res = await fetch(url, init);
  const seen: number[] = [];
  let text = '';
  const decoder = new TextDecoder();
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    text += decoder.decode(chunk, { stream: true });
    while (seen.length < markers.length && text.includes(markers[seen.length]!)) seen.push(performance.now() - started);
  }
  if (seen.length < markers.length) throw new Error(`${url} answered ${res.status} without ${markers[seen.length]}:\n${text}`);
  return seen;
}

const turn = (restaurantId = restaurant.id, headers = auth) =>
  timeTo(
    `http://127.0.0.1:${gatewayPort}/v1/partner/restaurants/${restaurantId}/concierge/chat`,
    {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'Anything with salmon?' }),
    },
    ['event: meta', 'event: delta'],
  );
const direct = () =>
  timeTo(
    `${upstreamUrl}/chat/completions`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', stream: true, messages: [{ role: 'user', content: 'hi' }] }),
    },
    [`"content":${JSON.stringify(FIRST_SENTENCE)}`],
  );

// Warm: the first few hundred turns still tune the JIT of both services.
for (let i = 0; i < 300; i++) await Promise.all([turn(), direct()]);
const meta: number[] = [];
const firstDelta: number[] = [];
const upstreamFirst: number[] = [];
for (let i = 0; i < TURNS; i++) {
  const [m, d] = await turn();
  meta.push(m!);
  firstDelta.push(d!);
  upstreamFirst.push((await direct())[0]!);
}

// The large restaurant's first turn builds its index (on a worker thread); turns of the first
// restaurant go on meanwhile, one after another, and as many again once it is built (the baseline:
// the machine's load drifts over a run).
const largeTurn = turn(large.restaurant.id, large.auth);
let building = true;
void largeTurn.finally(() => (building = false));
const duringBuild: number[] = [];
while (building) duringBuild.push((await turn())[1]!);
const [, largeFirstDelta] = await largeTurn;
const afterBuild: number[] = [];
while (afterBuild.length < Math.max(duringBuild.length, 50)) afterBuild.push((await turn())[1]!);
// Warm turns at 50,000 dishes, alternating with turns at 1,000.
const largeWarm: number[] = [];
const smallWarm: number[] = [];
for (let i = 0; i < 100; i++) {
  largeWarm.push((await turn(large.restaurant.id, large.auth))[1]!);
  smallWarm.push((await turn())[1]!);
}

// Retrieval over a 1,000-item menu, in process: build once, then time questions.
const builder = new MenuIndexBuilder();
for (let n = 0; n < 1000; n++) {
  builder.add({
    id: `itm_${n}`,
    slug: `dish-${n}`,
    name: `Dish ${n} with ${['tomato', 'basil', 'salmon', 'tofu', 'mushroom'][n % 5]}`,
    description: 'Slow-cooked, served with seasonal greens',
    priceCents: 500 + n,
    allergens: ['milk'],
    dietaryTags: ['vegetarian'],
    thumbnailKey: null,
  } satisfies MenuEntry);
}
const index = new MenuIndex(builder.finish('"bench"'));
const questions = ['Anything with salmon?', 'vegetarian dishes without milk', 'what do you recommend', 'spicy tofu please'];
const searches: number[] = [];
for (let i = 0; i < 2000; i++) {
  const started = performance.now();
  index.search(questions[i % questions.length]!);
  searches.push(performance.now() - started);
}

const p = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.floor(q * (values.length - 1))]!;
const ms = (value: number) => `${value.toFixed(2)} ms`;
const pair = (values: number[]) => `p50 ${ms(median(values))}, p99 ${ms(p(values, 0.99))}`;
const signed = (value: number) => `${value < 0 ? '−' : '+'}${Math.abs(value).toFixed(2)} ms`;
const added = median(firstDelta) - median(upstreamFirst);
const addedDuringBuild = median(duringBuild) - median(afterBuild);
const addedBySize = median(largeWarm) - median(smallWarm);
reportMeasures(`Concierge, ${TURNS} sequential turns through the gateway against a zero-latency model server`, [
  {
    measure: 'first delta through the gateway',
    figure: `${pair(firstDelta)} (meta ${pair(meta)})`,
    baseline: `model server called directly: first token ${pair(upstreamFirst)}`,
    ratio: signed(added),
    target: '≤ +5 ms at p50',
    met: added <= 5,
  },
  {
    measure: `first delta while another restaurant's ${LARGE_MENU.toLocaleString('en-US')}-dish index builds`,
    figure: `${pair(duringBuild)}, max ${ms(Math.max(...duringBuild))} (${duringBuild.length} turns)`,
    baseline: `the same turns after it: ${pair(afterBuild)}`,
    ratio: `${signed(addedDuringBuild)} at p50`,
    // The build's thread shares the service's pinned core here; on the event loop it held turns 2.5-2.9 s.
    target: 'no turn held: max ≤ 500 ms',
    met: Math.max(...duringBuild) <= 500,
  },
  {
    measure: `first delta at ${LARGE_MENU.toLocaleString('en-US')} dishes, index cold (built) and warm`,
    figure: `cold ${ms(largeFirstDelta!)}; warm ${pair(largeWarm)}`,
    baseline: `1,000 dishes, warm, turn about: ${pair(smallWarm)}`,
    ratio: `warm ${signed(addedBySize)}`,
    target: 'warm ≤ +5 ms at p50',
    met: addedBySize <= 5,
  },
  {
    measure: 'retrieval over 1,000 items, in process',
    figure: pair(searches),
    target: '≤ 5 ms at p50',
    met: median(searches) <= 5,
  },
]);

await stopProcesses([gateway, concierge]);
upstream.close();
await database.drop();
