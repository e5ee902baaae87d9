// `pnpm bench`: every benchmark in turn, each reporting its measures (reportMeasures) into one results
// file, then one combined table, recorded in docs/benchmarks.md. A missed target is a finding, not a
// failure: the exit code is non-zero only when a benchmark crashed. BENCH_ONLY=gateway,processes runs a
// subset; the benchmarks' own variables (BENCH_DURATION, BENCH_ROUNDS...) pass through to each.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Measure, measuresTable, type ReportedMeasure } from '@partner/bench-kit';
import { recordRun, runEntry } from './record.js';

const BENCHMARKS = [
  { name: 'gateway', filter: '@partner/gateway', script: 'bench' },
  { name: 'catalog', filter: '@partner/catalog', script: 'bench' },
  { name: 'webhooks', filter: '@partner/webhooks', script: 'bench' },
  { name: 'concierge', filter: '@partner/concierge', script: 'bench' },
  { name: 'processes', filter: '@partner/bench', script: 'processes' },
  { name: 'observability', filter: '@partner/bench', script: 'observability' },
];

const only = process.env.BENCH_ONLY?.split(',').map((name) => name.trim());
const unknown = only?.filter((name) => !BENCHMARKS.some((benchmark) => benchmark.name === name)) ?? [];
if (unknown.length) {
  console.error(`BENCH_ONLY names no benchmark called ${unknown.join(', ')} (known: ${BENCHMARKS.map((b) => b.name).join(', ')})`);
  process.exit(2);
}

const directory = mkdtempSync(join(tmpdir(), 'ptr-bench-'));
const resultsFile = join(directory, 'results.jsonl');
const readResults = (): Measure[] =>
  existsSync(resultsFile)
    ? readFileSync(resultsFile, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Measure)
    : [];

const measures: ReportedMeasure[] = [];
const crashed: string[] = [];
const silent: string[] = [];
for (const { name, filter, script } of BENCHMARKS.filter((benchmark) => !only || only.includes(benchmark.name))) {
  console.log(`\n=== ${name} (pnpm --filter ${filter} ${script})`);
  const reportedBefore = readResults().length;
  const run = spawnSync('pnpm', ['--filter', filter, '--silent', 'run', script], {
    stdio: 'inherit',
    env: { ...process.env, BENCH_RESULTS: resultsFile },
  });
  const reported = readResults().slice(reportedBefore);
  measures.push(...reported.map((measure) => ({ ...measure, benchmark: name })));
  if (run.status !== 0) crashed.push(`${name} (${run.error?.message ?? `exit ${run.status ?? run.signal}`})`);
  else if (!reported.length) silent.push(name);
}
rmSync(directory, { recursive: true, force: true });

const met = measures.filter((measure) => measure.met).length;
const summary = [
  `${met} of ${measures.length} targets met.`,
  ...(crashed.length ? [`Crashed: ${crashed.join(', ')}.`] : []),
  ...(silent.length ? [`Reported no measures (not yet on reportMeasures): ${silent.join(', ')}.`] : []),
].join(' ');
const table = measuresTable(measures);
console.log(`\nAll benchmarks, Node ${process.version}\n\n${table}\n\n${summary}\n`);
recordRun('`pnpm bench` runs', runEntry(`${table}\n\n${summary}`));
process.exitCode = crashed.length ? 1 : 0;
