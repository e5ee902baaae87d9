// pnpm bench:gateway — GET /v1/partner/me through the gateway (key lookup, Redis rate limit, headers)
// against a bare express app returning the same JSON, measured in the same run on this machine.
// Servers on core 0, load generator on core 1, 50 connections, no pipelining. Each round runs both back to
// back, the order alternating; the ratio is the median of the rounds' ratios, so a change in the machine's
// speed between rounds (a shared machine's neighbours) moves both sides of a ratio alike.
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { generateInternalKeyPair } from '@partner/auth';
import {
  benchRedisUrl,
  createBenchDatabase,
  formatHttpFigures,
  measureHttp,
  median,
  medianFigures,
  pinToCore,
  reportMeasures,
  seedUnlimitedKey,
  startProcess,
  stopProcesses,
  waitUntilUp,
  type HttpFigures,
} from '@partner/bench-kit';

const DURATION_S = Number(process.env.BENCH_DURATION ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
/** `/me` through the gateway against the bare express app (issue 17). */
const MIN_RATIO = 0.9;
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

// Warm both (JIT, pools, key cache), then the rounds.
const runs: Record<keyof typeof targets, HttpFigures[]> = { gateway: [], bare: [] };
for (const name of ['gateway', 'bare'] as const) await measureHttp(targets[name], { headers: auth, durationSeconds: 2 });
for (let round = 0; round < ROUNDS; round++) {
  for (const name of round % 2 ? (['gateway', 'bare'] as const) : (['bare', 'gateway'] as const))
    runs[name].push(await measureHttp(targets[name], { headers: auth, durationSeconds: DURATION_S }));
}
const summary = { gateway: medianFigures(runs.gateway), bare: medianFigures(runs.bare) };
const roundRatios = runs.gateway.map((run, round) => run.rps / runs.bare[round]!.rps);
const ratio = median(roundRatios);

reportMeasures(
  `GET /v1/partner/me, 50 connections, ${ROUNDS} rounds of ${DURATION_S} s each (medians; the ratio the median of the rounds' ratios)`,
  [
    {
      measure: '`/me` through the gateway (key, rate limit, headers)',
      figure: formatHttpFigures(summary.gateway),
      baseline: `bare express: ${formatHttpFigures(summary.bare)}`,
      ratio: `${ratio.toFixed(2)}x (rounds ${Math.min(...roundRatios).toFixed(2)}–${Math.max(...roundRatios).toFixed(2)})`,
      target: `≥ ${MIN_RATIO.toFixed(2)}x bare express`,
      met: ratio >= MIN_RATIO && summary.gateway.errors === 0,
    },
  ],
);

await stopProcesses([gateway, bare]);
await database.drop();
