import { ms, type CaseReport } from '../report.ts';
import { type FaultContext, runUnderLoad } from './context.ts';
import { loadRows } from './load-rows.ts';

/** Case 4: the postmaster and every backend SIGSTOPped under load for ~10 s, then SIGCONT. */
export async function postgresFreeze(ctx: FaultContext): Promise<CaseReport> {
  const run = await runUnderLoad(ctx, {
    baselineMs: 2000,
    durationMs: 10_000,
    maxTailMs: 25_000,
    inject: () => ctx.postgres.freeze(),
    heal: () => ctx.postgres.thaw(),
  });
  return {
    title: `4. Postgres frozen (SIGSTOP, postmaster and backends) under load for ${ms(run.healedAt - run.faultStartAt)}, then SIGCONT`,
    rows: loadRows(run),
    notes: ['A frozen server keeps its connections open and answers nothing: only deadlines end the wait.'],
  };
}
