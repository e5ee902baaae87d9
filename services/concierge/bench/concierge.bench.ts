// pnpm bench:concierge — time to `meta` and to the first `delta` of a concierge turn through the gateway,
// against a local zero-latency upstream that speaks OpenAI's streaming protocol, beside the same upstream
// called directly; and retrieval time over a 1,000-item menu.
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
  seedUnlimitedKey,
  startProcess,
  stopProcesses,
  waitUntilUp,
} from '@partner/bench-kit';
import { MenuIndex, type MenuEntry } from '../dist/grounding/menu-index.js';

const TURNS = Number(process.env.BENCH_TURNS ?? 200);
const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

// The upstream: answers every chat completion at once, a first token then a few more.
const upstream = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const chunk = (content: string) =>
      `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`;
    res.write(chunk('Hello'));
    res.write(chunk(' there'));
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

const jwt = generateInternalKeyPair();
const common = {
  DATABASE_URL: database.url,
  REDIS_URL: benchRedisUrl,
  REDIS_KEY_PREFIX: `bench${randomBytes(3).toString('hex')}:`,
  LOG_LEVEL: 'warn',
};
const concierge = startProcess(here('../dist/main.js'), {
  ...common,
  CONCIERGE_PORT: '18083',
  INTERNAL_JWT_PUBLIC_KEY: jwt.publicKey,
  OPENAI_API_KEY: 'sk-bench',
  OPENAI_BASE_URL: upstreamUrl,
});
const gateway = startProcess(here('../../gateway/dist/main.js'), {
  ...common,
  GATEWAY_PORT: '18080',
  CONCIERGE_URL: 'http://127.0.0.1:18083',
  INTERNAL_JWT_PRIVATE_KEY: jwt.privateKey,
});
await waitUntilUp('http://127.0.0.1:18080/v1/partner/me', auth);
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
  return seen;
}

const turn = () =>
  timeTo(
    `http://127.0.0.1:18080/v1/partner/restaurants/${restaurant.id}/concierge/chat`,
    {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
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
    ['"content":"Hello"'],
  );

for (let i = 0; i < 20; i++) await Promise.all([turn(), direct()]);
const meta: number[] = [];
const firstDelta: number[] = [];
const upstreamFirst: number[] = [];
for (let i = 0; i < TURNS; i++) {
  const [m, d] = await turn();
  meta.push(m!);
  firstDelta.push(d!);
  upstreamFirst.push((await direct())[0]!);
}

// Retrieval over a 1,000-item menu, in process: build once, then time questions.
const entries: MenuEntry[] = Array.from({ length: 1000 }, (_, n) => ({
  id: `itm_${n}`,
  slug: `dish-${n}`,
  name: `Dish ${n} with ${['tomato', 'basil', 'salmon', 'tofu', 'mushroom'][n % 5]}`,
  description: 'Slow-cooked, served with seasonal greens',
  priceCents: 500 + n,
  allergens: ['milk'],
  dietaryTags: ['vegetarian'],
  thumbnailKey: null,
}));
const buildStarted = performance.now();
const index = new MenuIndex(entries);
const buildMs = performance.now() - buildStarted;
const questions = ['Anything with salmon?', 'vegetarian dishes without milk', 'what do you recommend', 'spicy tofu please'];
const searches: number[] = [];
for (let i = 0; i < 2000; i++) {
  const started = performance.now();
  index.search(questions[i % questions.length]!);
  searches.push(performance.now() - started);
}

const p = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.floor(q * (values.length - 1))]!;
const f = (ms: number) => ms.toFixed(2);
const added = median(firstDelta) - median(upstreamFirst);
console.log(`\nConcierge, ${TURNS} sequential turns, Node ${process.version}`);
console.log('| measure | p50 ms | p99 ms |');
console.log('|---|---|---|');
console.log(`| time to meta through the gateway | ${f(median(meta))} | ${f(p(meta, 0.99))} |`);
console.log(`| time to first delta through the gateway | ${f(median(firstDelta))} | ${f(p(firstDelta, 0.99))} |`);
console.log(`| first token from the upstream called directly (baseline) | ${f(median(upstreamFirst))} | ${f(p(upstreamFirst, 0.99))} |`);
console.log(`| retrieval over 1,000 items (index built once in ${f(buildMs)} ms) | ${f(median(searches))} | ${f(p(searches, 0.99))} |`);
console.log(`\nadded to the first delta at p50: ${f(added)} ms (target <= 25); retrieval p50 ${f(median(searches))} ms (target <= 5)`);

await stopProcesses([gateway, concierge]);
upstream.close();
await database.drop();
