// pnpm fault — the fault suite (issue 15, deliverable 7; docs/resilience.md). Starts a Postgres and a
// Redis of its own on private ports, the five built services against them, seeds through the console,
// then breaks things under load and prints one table per case with the issue's targets. A report: it
// exits 0 whatever it finds, unless --strict (1 on a missed target). Always stops and deletes what it started.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDb } from '@partner/db';
import { startOwnRedisServer } from '@partner/testing';
import { startReceiver } from '../src/webhook-receiver.ts';
import { type FaultContext } from './cases/context.ts';
import { dispatcherKill } from './cases/dispatcher-kill.ts';
import { malformed } from './cases/malformed.ts';
import { postgresFreeze } from './cases/postgres-freeze.ts';
import { postgresStop } from './cases/postgres-stop.ts';
import { redisKill } from './cases/redis-kill.ts';
import { Cleanup, sleep } from './cleanup.ts';
import { startOwnPostgres } from './own-postgres.ts';
import { type CaseReport, missedTargets, renderCase, renderSummary, requestDeadlineMs } from './report.ts';
import { seed } from './seed.ts';
import { startStack } from './stack.ts';

const CASES: [string, (ctx: FaultContext) => Promise<CaseReport>][] = [
  ['1', dispatcherKill],
  ['2', redisKill],
  ['3', postgresStop],
  ['4', postgresFreeze],
  ['5', malformed],
];
/** Far past a normal run (about three minutes): a run stuck this long is stopped and cleaned up. */
const WATCHDOG_MS = 8 * 60_000;

const args = process.argv.slice(2);
const strict = args.includes('--strict');
const only = args
  .find((arg) => arg.startsWith('--only='))
  ?.slice('--only='.length)
  .split(',');
const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const outDir = join(repoRoot, '.data', 'fault');

function describeBuild(): string {
  const git = (...argv: string[]) => execFileSync('git', argv, { cwd: repoRoot, encoding: 'utf8' }).trim();
  try {
    const dirty = git('status', '--porcelain', '--untracked-files=no') !== '';
    return `${git('rev-parse', '--short', 'HEAD')}${dirty ? ' (with uncommitted changes in the tree)' : ''}`;
  } catch {
    return 'unknown';
  }
}

const cleanup = new Cleanup();
cleanup.onSignals();
const watchdog = setTimeout(() => {
  console.error(`the fault run passed ${WATCHDOG_MS / 60_000} minutes; stopping it`);
  void cleanup.runAll().finally(() => process.exit(2));
}, WATCHDOG_MS);
watchdog.unref();

const startedAt = Date.now();
const header = [
  `## Fault run of ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`,
  '',
  `Commit ${describeBuild()}, Node ${process.version}, ${cpus().length} cores; request deadline ${requestDeadlineMs()} ms` +
    `${process.env.REQUEST_DEADLINE_MS ? ' (REQUEST_DEADLINE_MS)' : ' (default)'}.`,
];
console.log(header.join('\n'));
const reports: CaseReport[] = [];
const printed: string[] = [...header];
let failed = false;
try {
  const workDir = mkdtempSync(join(tmpdir(), 'ptr-fault-'));
  cleanup.add('delete the work directory', () => rmSync(workDir, { recursive: true, force: true }));
  const postgres = await startOwnPostgres();
  cleanup.add('stop and delete the own Postgres', () => postgres.destroy());
  const redis = await startOwnRedisServer();
  cleanup.add('kill the own Redis', () => redis.stop());
  // Logs stay after the run (git-ignored), for reading what the services said during each fault.
  const logDir = join(outDir, 'logs');
  rmSync(logDir, { recursive: true, force: true });
  const stack = await startStack({ databaseUrl: postgres.url, redisUrl: redis.url, workDir, logDir });
  cleanup.add('kill the services', () => stack.stop());
  const receiver = await startReceiver();
  cleanup.add('close the webhook receiver', () => receiver.close());
  const seeded = await seed(stack, receiver.url);
  const db = createDb({ url: postgres.url, max: 2 });
  cleanup.add('close the database handle', () => db.destroy());
  const ctx: FaultContext = { stack, seeded, postgres, redis, receiver, db, concurrency: Number(process.env.FAULT_CONCURRENCY ?? 16) };
  console.log(`Stack up in ${((Date.now() - startedAt) / 1000).toFixed(1)} s; service logs in ${logDir}\n`);

  for (const [id, run] of CASES) {
    if (only && !only.includes(id)) continue;
    // A case starts from a stack that answers: the one before may have left it recovering, or a
    // service dead (started again here, and said so in the case's notes).
    const revived = await stack.reviveExited().catch((err: unknown) => {
      console.error('a service that exited could not be started again:', err);
      return [];
    });
    const healthyBy = Date.now() + 30_000;
    while (!(await stack.healthy()) && Date.now() < healthyBy) await sleep(250);
    const caseStartedAt = Date.now();
    let report: CaseReport;
    try {
      report = await run(ctx);
    } catch (err) {
      report = {
        title: `${id}. ${run.name}: the case itself failed`,
        rows: [{ figure: 'error', value: err instanceof Error ? err.message : String(err), target: 'the case runs', met: false }],
        notes: [],
      };
    }
    const exits = stack.unexpectedExits.filter((exit) => exit.at >= caseStartedAt);
    report.rows.push({
      figure: 'service processes that exited by themselves',
      value: exits.map((exit) => `${exit.name} (${exit.signal ?? `code ${exit.code}`})`).join(', ') || 'none',
      target: 'none',
      met: exits.length === 0,
    });
    if (revived.length) report.notes.push(`Started again before this case, after exiting in the one before: ${revived.join(', ')}.`);
    report.notes.push(`The case took ${((Date.now() - caseStartedAt) / 1000).toFixed(1)} s.`);
    reports.push(report);
    printed.push('', renderCase(report));
    console.log(`${renderCase(report)}\n`);
  }
  const summary = renderSummary(reports);
  printed.push('', summary, '', `Whole run: ${((Date.now() - startedAt) / 1000).toFixed(0)} s.`);
  console.log(`${summary}\n\nWhole run: ${((Date.now() - startedAt) / 1000).toFixed(0)} s.`);
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, 'last-run.md'), `${printed.join('\n')}\n`);
} catch (err) {
  failed = true;
  console.error('the fault run could not complete:', err);
} finally {
  await cleanup.runAll();
}
const missed = missedTargets(reports);
process.exit(failed || (strict && missed.length) ? 1 : 0);
