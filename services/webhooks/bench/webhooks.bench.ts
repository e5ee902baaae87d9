// pnpm bench:webhooks — sustained deliveries per second to a local receiver, and event-to-receipt
// latency at a steady event rate, with the dispatcher running as production runs it (node dist/main.js).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { generateInternalKeyPair } from '@partner/auth';
import { SealingKeys } from '@partner/signing';
// The built package (as production runs it), not its sources: the bench runs on plain Node.
import { insertWebhookEndpoint, sealEndpointSecret } from '@partner/webhooks/testing';
import { benchRedisUrl, createBenchDatabase, median, pinToCore, seedUnlimitedKey, startProcess, stopProcesses } from '@partner/bench-kit';

const BURST = Number(process.env.BENCH_BURST ?? 10_000);
const RATE = Number(process.env.BENCH_RATE ?? 500);
const STEADY_SECONDS = Number(process.env.BENCH_STEADY_SECONDS ?? 10);
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
  LOG_LEVEL: 'warn',
});
await new Promise((resolve) => setTimeout(resolve, 1000));
await pinToCore(dispatcher, 0);

let serial = 0;
async function emit(count: number): Promise<string[]> {
  const ids = Array.from({ length: count }, () => `evt_bench${String(serial++).padStart(9, '0')}`);
  await database.db
    .insertInto('outbox_events')
    .values(
      ids.map((id) => ({
        id,
        type: 'item.updated',
        restaurant_id: restaurant.id,
        data: JSON.stringify({ itemId: 'itm_bench', restaurantId: restaurant.id, itemSlug: 'dish', itemName: 'Dish' }),
      })),
    )
    .execute();
  return ids;
}

async function waitFor(ids: string[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (ids.some((id) => !received.has(id))) {
    if (Date.now() > deadline) throw new Error(`only ${ids.filter((id) => received.has(id)).length} of ${ids.length} arrived`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

// Sustained throughput: a burst queued at once, drained by the dispatcher.
await waitFor(await emit(200), 30_000); // warm-up
const burstStart = Date.now();
const burst = await emit(BURST);
await waitFor(burst, 120_000);
const burstSeconds = (Math.max(...burst.map((id) => received.get(id)!)) - burstStart) / 1000;
const deliveriesPerSecond = BURST / burstSeconds;

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

console.log(`\nWebhooks, Node ${process.version}`);
console.log('| measure | figure | target |');
console.log('|---|---|---|');
console.log(
  `| sustained deliveries (burst of ${BURST}) | ${Math.round(deliveriesPerSecond)} /s | >= 1000 /s (${deliveriesPerSecond >= 1000 ? 'met' : 'MISSED'}) |`,
);
console.log(`| event-to-receipt latency at ${RATE} events/s, p50 | ${percentile(50)} ms | |`);
console.log(
  `| event-to-receipt latency at ${RATE} events/s, p99 | ${percentile(99)} ms | <= 500 ms (${percentile(99) <= 500 ? 'met' : 'MISSED'}) |`,
);
console.log(`(median ${median(delays)} ms over ${delays.length} events)`);

await stopProcesses([dispatcher]);
receiver.close();
await database.drop();
