import { readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';

const BENCHMARKS_DOC = fileURLToPath(new URL('../../docs/benchmarks.md', import.meta.url));

/** Cores, CPU model (from /proc/cpuinfo) and memory: what a reader needs to compare two runs. */
export function machineDescription(): string {
  const model = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1]?.trim() ?? 'unknown CPU';
  return `${availableParallelism()} cores (${model}), ${Math.round(totalmem() / 2 ** 30)} GiB`;
}

/** "### <date>, Node <version>, <machine>" and the run's text below it. */
export function runEntry(body: string): string {
  const date = new Date().toISOString().slice(0, 16).replace('T', ' ');
  return `### ${date} UTC, Node ${process.version}, ${machineDescription()}\n\n${body.trim()}\n`;
}

/** `markdown` with `entry` added at the end of its section (`## <heading>`), the section created at the end the first time. */
export function withRun(markdown: string, heading: string, entry: string): string {
  const lines = markdown.trimEnd().split('\n');
  let start = lines.indexOf(`## ${heading}`);
  if (start === -1) start = lines.push('', `## ${heading}`) - 1;
  const next = lines.findIndex((line, i) => i > start && line.startsWith('## '));
  let end = next === -1 ? lines.length : next;
  while (end > start + 1 && lines[end - 1] === '') end--; // above the blank lines before the next section
  lines.splice(end, 0, '', ...entry.trimEnd().split('\n'));
  return lines.join('\n') + '\n';
}

/** Adds a run to docs/benchmarks.md (see withRun); BENCH_RECORD=0 prints only (development runs). */
export function recordRun(heading: string, entry: string): void {
  if (process.env.BENCH_RECORD === '0') return;
  writeFileSync(BENCHMARKS_DOC, withRun(readFileSync(BENCHMARKS_DOC, 'utf8'), heading, entry));
  console.log(`recorded in docs/benchmarks.md under "## ${heading}"`);
}
