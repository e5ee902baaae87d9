// pnpm bench:webhooks — sustained deliveries per second to a local receiver beside a bare undici POST
// loop to the same receiver at the same concurrency (measured in the same run, alternating), and
// event-to-receipt latency at a steady event rate, with the dispatcher running as production runs it
// (node dist/main.js).
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { generateInternalKeyPair } from '@partner/auth';
import { SealingKeys } from '@partner/signing';
// The built package (as production runs it), not its sources: the bench runs on plain Node.
import { insertWebhookEndpoint, sealEndpointSecret } from '@partner/webhooks/testing';
import {
  benchRedisUrl,
  createBenchDatabase,
  formatRate,
  median,
  pinToCore,
  reportMeasures,
  seedUnlimitedKey,
  startProcess,
  stopProcesses,
} from '@partner/bench-kit';

const BURST = Number(process.env.BENCH_BURST ?? 10_000);
const RATE = Number(process.env.BENCH_RATE ?? 500);
const STEADY_SECONDS = Number(process.env.BENCH_STEADY_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** One endpoint is one owner: the dispatcher has at most this many of its attempts in flight. */
const OWNER_CONCURRENCY = 32;
const MIN_RATIO = 0.5;
const MAX_P99_MS = 500;
const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

const received = new Map<string, number>();
const receiver = createServer((req, res) => {
  let body = '';
  req.on('data', (chunk) => (body += chunk));
  req.on('end', () => {
    const id = (JSON.parse(body) as { id: string }).id;
    if (!received.has(id)) received.set(id, Date.now());
    res.writeHead(204).end();
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;

const database = await createBenchDatabase();
const { restaurant } = await seedUnlimitedKey(database.db, []);
const sealingSpec = SealingKeys.generateSpec('bench');
const endpointId = 'we_bench000000000000000000';
await insertWebhookEndpoint(database.db, {
  id: endpointId,
  owner: { kind: 'restaurant', id: restaurant.id },
  url: receiverUrl,
  enabledEvents: ['item.updated'],
  description: null,
  sealedSecret: sealEndpointSecret(SealingKeys.parse(sealingSpec), endpointId, `whsec_${randomBytes(16).toString('hex')}`),
});

const dispatcher = startProcess(here('../dist/main.js'), {
  DATABASE_URL: database.url,
  REDIS_URL: benchRedisUrl,
  REDIS_KEY_PREFIX: `bench${randomBytes(3).toString('hex')}:`,
  WEBHOOKS_PORT: '18082',
  INTERNAL_JWT_PUBLIC_KEY: generateInternalKeyPair().publicKey,
  CURSOR_SIGNING_SECRET: randomBytes(32).toString('hex'),
  WEBHOOK_SEALING_KEYS: sealingSpec,
  WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  WEBHOOK_OWNER_CONCURRENCY: String(OWNER_CONCURRENCY),
  LOG_LEVEL: 'warn',
});
await new Promise((resolve) => setTimeout(resolve, 1000));
await pinToCore(dispatcher, 0);

const eventData = { itemId: 'itm_bench', restaurantId: restaurant.id, itemSlug: 'dish', itemName: 'Dish' };
let serial = 0;
async function emit(count: number): Promise<string[]> {
  const ids = Array.from({ length: count }, () => `evt_bench${String(serial++).padStart(9, '0')}`);
  // One array parameter, not four a row: building and parsing 40,000 parameters took the producer
  // longer than the dispatcher took to fan the events out.
  await sql`
    insert into outbox_events (id, type, restaurant_id, data)
    select id, 'item.updated', ${restaurant.id}, ${JSON.stringify(eventData)}::jsonb from unnest(${ids}::text[]) as id
  `.execute(database.db);
  return ids;
}

/**
 * Until every one of `ids` has arrived. Each look starts at the first id still missing: polling the whole
 * list every 5 ms took the benchmark's core (the receiver's) from the deliveries it measures.
 */
async function waitFor(ids: string[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let arrived = 0;
  for (;;) {
    while (arrived < ids.length && received.has(ids[arrived]!)) arrived++;
    if (arrived === ids.length) return;
    if (Date.now() > deadline) throw new Error(`only ${ids.filter((id) => received.has(id)).length} of ${ids.length} arrived`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** The baseline: the same bodies and headers (in size) POSTed by bare undici from the dispatcher's core. */
async function rawPostLoop(count: number): Promise<number> {
  const body = JSON.stringify({ id: '%ID%', type: 'item.updated', createdAt: new Date().toISOString(), data: eventData });
  const loop = startProcess(here('./raw-post-loop.ts'), {
    RECEIVER_URL: receiverUrl,
    COUNT: String(count),
    CONCURRENCY: String(OWNER_CONCURRENCY),
    BODY_TEMPLATE: body,
    HEADERS: JSON.stringify({
      'content-type': 'application/json',
      'user-agent': 'PartnerPlatform-Webhooks/1.0',
      'x-service-event': 'item.updated',
      'x-service-delivery': `whd_${randomBytes(16).toString('hex')}`,
      'x-service-signature': `t=${Math.floor(Date.now() / 1000)},v1=${randomBytes(32).toString('hex')}`,
    }),
  });
  await once(loop, 'message');
  await pinToCore(loop, 0);
  loop.send('go');
  const exited = once(loop, 'exit').then(() => Promise.reject(new Error('the POST loop failed (its error is above)')));
  const [{ seconds }] = (await Promise.race([once(loop, 'message'), exited])) as [{ seconds: number }];
  await stopProcesses([loop]);
  return count / seconds;
}

/** The dispatcher: a burst written to the outbox at once, timed from the write until the last arrives. */
async function dispatcherBurst(count: number): Promise<number> {
  const started = Date.now();
  const burst = await emit(count);
  await waitFor(burst, 120_000);
  return count / ((Math.max(...burst.map((id) => received.get(id)!)) - started) / 1000);
}

await waitFor(await emit(200), 30_000); // warm-up
await rawPostLoop(200);
const rates = { dispatcher: [] as number[], raw: [] as number[] };
for (let round = 0; round < ROUNDS; round++) {
  rates.raw.push(await rawPostLoop(BURST));
  rates.dispatcher.push(await dispatcherBurst(BURST));
}
const dispatched = median(rates.dispatcher);
const raw = median(rates.raw);
const ratio = dispatched / raw;

// Latency: events written at a steady rate well inside capacity, each timed from its write to receipt.
const writtenAt: number[] = [];
const steady: string[] = [];
for (let second = 0; second < STEADY_SECONDS; second++) {
  for (let slice = 0; slice < 10; slice++) {
    const written = Date.now();
    const ids = await emit(RATE / 10);
    steady.push(...ids);
    writtenAt.push(...ids.map(() => written));
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, written + 100 - Date.now())));
  }
}
await waitFor(steady, 60_000);
const delays = steady.map((id, i) => received.get(id)! - writtenAt[i]!).sort((a, b) => a - b);
const percentile = (p: number) => delays[Math.min(delays.length - 1, Math.floor((p / 100) * delays.length))]!;

reportMeasures(
  `Webhooks, one endpoint, ${OWNER_CONCURRENCY} in flight, burst of ${BURST.toLocaleString('en-US')} x ${ROUNDS} rounds (medians)`,
  [
    {
      measure: 'sustained deliveries (outbox write to receipt, signed, recorded)',
      figure: formatRate(dispatched, '/s'),
      baseline: `bare undici POST loop, same receiver and body, ${OWNER_CONCURRENCY} at once: ${formatRate(raw, '/s')}`,
      ratio: `${ratio.toFixed(2)}x`,
      target: `≥ ${MIN_RATIO.toFixed(2)}x the POST loop`,
      met: ratio >= MIN_RATIO,
    },
    {
      measure: `event-to-receipt latency at ${RATE} events/s for ${STEADY_SECONDS} s`,
      figure: `p50 ${percentile(50)} ms, p99 ${percentile(99)} ms`,
      target: `p99 ≤ ${MAX_P99_MS} ms`,
      met: percentile(99) <= MAX_P99_MS,
    },
  ],
);

await stopProcesses([dispatcher]);
receiver.close();
await database.drop();
