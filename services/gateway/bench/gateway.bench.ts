// pnpm bench:gateway — GET /v1/partner/me through the gateway (key lookup, Redis rate limit, headers)
// against a bare express app returning the same JSON, measured in the same run on this machine.
// Servers on core 0, load generator on core 1, 50 connections, no pipelining; medians of several rounds.
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { generateInternalKeyPair } from '@partner/auth';
import {
  benchRedisUrl,
  createBenchDatabase,
  measureHttp,
  medianFigures,
  pinToCore,
  seedUnlimitedKey,
  startProcess,
  stopProcesses,
  waitUntilUp,
  type HttpFigures,
} from '@partner/bench-kit';

const DURATION_S = Number(process.env.BENCH_DURATION ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

const database = await createBenchDatabase();
const { auth } = await seedUnlimitedKey(database.db, ['menu:read']);

const gateway = startProcess(here('../dist/main.js'), {
  DATABASE_URL: database.url,
  REDIS_URL: benchRedisUrl,
  REDIS_KEY_PREFIX: `bench${randomBytes(3).toString('hex')}:`,
  GATEWAY_PORT: '18080',
  INTERNAL_JWT_PRIVATE_KEY: generateInternalKeyPair().privateKey,
  LOG_LEVEL: 'warn',
});
const targets = { gateway: 'http://127.0.0.1:18080/v1/partner/me', bare: 'http://127.0.0.1:18090/v1/partner/me' };
await waitUntilUp(targets.gateway, auth);
const meBody = await (await fetch(targets.gateway, { headers: auth })).json();
const bare = startProcess(here('./bare-app.ts'), { PORT: '18090', BENCH_BODY: JSON.stringify(meBody) });
await waitUntilUp(targets.bare);
await Promise.all([pinToCore(gateway, 0), pinToCore(bare, 0)]);

// Warm both (JIT, pools, key cache), then alternate rounds so drift hits both alike.
const runs: Record<keyof typeof targets, HttpFigures[]> = { gateway: [], bare: [] };
for (const name of ['gateway', 'bare'] as const) await measureHttp(targets[name], { headers: auth, durationSeconds: 2 });
for (let round = 0; round < ROUNDS; round++) {
  for (const name of ['bare', 'gateway'] as const)
    runs[name].push(await measureHttp(targets[name], { headers: auth, durationSeconds: DURATION_S }));
}
const summary = { gateway: medianFigures(runs.gateway), bare: medianFigures(runs.bare) };
const ratio = summary.gateway.rps / summary.bare.rps;

console.log(`\nGET /v1/partner/me, 50 connections, ${DURATION_S}s x ${ROUNDS} rounds (medians), Node ${process.version}`);
console.log('| target | req/s | p50 ms | p99 ms | errors |');
console.log('|---|---|---|---|---|');
console.log(
  `| gateway | ${Math.round(summary.gateway.rps)} | ${summary.gateway.p50} | ${summary.gateway.p99} | ${summary.gateway.errors} |`,
);
console.log(
  `| bare express (baseline) | ${Math.round(summary.bare.rps)} | ${summary.bare.p50} | ${summary.bare.p99} | ${summary.bare.errors} |`,
);
console.log(`\ngateway / bare throughput: ${ratio.toFixed(2)} (target >= 0.60); gateway p99 ${summary.gateway.p99} ms (target <= 10)`);

await stopProcesses([gateway, bare]);
await database.drop();
