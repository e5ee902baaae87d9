import { ms, type CaseReport } from '../report.ts';
import { type FaultContext, runUnderLoad } from './context.ts';
import { loadRows } from './load-rows.ts';

/** Case 3: Postgres stopped in order (`pg_ctl stop -m fast`) under load for ~5 s, then started again. */
export async function postgresStop(ctx: FaultContext): Promise<CaseReport> {
  const run = await runUnderLoad(ctx, {
    baselineMs: 2000,
    durationMs: 5000,
    maxTailMs: 20_000,
    inject: () => ctx.postgres.stop('fast'),
    heal: () => ctx.postgres.start(),
  });
  return {
    title: `3. Postgres stopped (pg_ctl stop -m fast) under load for ${ms(run.healedAt - run.faultStartAt)}, started again`,
    rows: loadRows(run),
    notes: ['Recovery counts from the moment `pg_ctl start -w` returned (Postgres accepting connections).'],
  };
}
