import { servedDuring } from '../figures.ts';
import { ms, n, percent, type CaseReport } from '../report.ts';
import { type FaultContext, runUnderLoad } from './context.ts';
import { loadRows } from './load-rows.ts';

const OUTAGE_MS = 5000;
const SERVED_SHARE_TARGET = 0.9;

/** Case 2: Redis SIGKILLed under load, started again on the same port ~5 s later (empty: no persistence). */
export async function redisKill(ctx: FaultContext): Promise<CaseReport> {
  const run = await runUnderLoad(ctx, {
    baselineMs: 2000,
    durationMs: OUTAGE_MS,
    maxTailMs: 20_000,
    inject: () => ctx.redis.kill(),
    heal: () => ctx.redis.start(),
  });
  const outage = servedDuring(run.samples, run.faultStartAt, run.healedAt);
  return {
    title: `2. Redis killed (SIGKILL) under load for ${ms(run.healedAt - run.faultStartAt)}, restarted on the same port`,
    rows: [
      ...loadRows(run),
      { figure: 'answered during the outage', value: `${n(outage.answered)} (${n(outage.answered - outage.allowed)} rate-limited)` },
      {
        figure: 'rate-limit-allowed requests served during the outage',
        value: `${percent(outage.share)} (${n(outage.served)} of ${n(outage.allowed)})`,
        target: `≥ ${SERVED_SHARE_TARGET * 100} %`,
        met: outage.share !== null && outage.share >= SERVED_SHARE_TARGET,
      },
    ],
    notes: [`Item detail (\`GET /v1/partner/items/{id}\`) through the gateway, ${ctx.concurrency} clients in a closed loop.`],
  };
}
