import { appendFileSync } from 'node:fs';

/**
 * One line of a benchmark's result: a figure beside the baseline measured in the same run, the ratio
 * between them where one is meant, and the target it is held to.
 */
export interface Measure {
  /** What was measured, e.g. "item detail through the gateway". */
  measure: string;
  /** The figure itself, readable: "7,649 req/s, p99 11 ms". */
  figure: string;
  /** The baseline beside it, readable, or absent where the target is absolute. */
  baseline?: string;
  /** figure / baseline (or the difference, for a budget such as "+5 ms"), as the target reads it. */
  ratio?: string;
  /** The target, readable: "≥ 0.90x, p99 ≤ 1.2x the hop's". */
  target: string;
  met: boolean;
}

const cell = (text: string | undefined) => (text ?? '').replaceAll('|', '\\|');

/** A line of `pnpm bench`'s combined table: a measure and the benchmark that reported it. */
export interface ReportedMeasure extends Measure {
  benchmark: string;
}

/** A markdown table of measures; with a first column naming the benchmark when they say which. */
export function measuresTable(measures: Measure[] | ReportedMeasure[]): string {
  const combined = measures.some((m) => 'benchmark' in m);
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  const header = [...(combined ? ['benchmark'] : []), 'measure', 'figure', 'baseline (same run)', 'ratio', 'target', ''];
  const rows = measures.map((m) => {
    const cells = [...(combined ? [(m as ReportedMeasure).benchmark] : []), m.measure, m.figure, m.baseline, m.ratio, m.target];
    return line([...cells.map(cell), m.met ? 'met' : '**missed**']);
  });
  return [line(header), `|${header.map(() => '---').join('|')}|`, ...rows].join('\n');
}

/**
 * Prints a benchmark's measures as a table and, when `BENCH_RESULTS` names a file (as `pnpm bench`
 * does), appends them to it as one JSON line per measure for the combined table.
 */
export function reportMeasures(title: string, measures: Measure[]): void {
  console.log(`\n${title}, Node ${process.version}\n\n${measuresTable(measures)}\n`);
  const file = process.env.BENCH_RESULTS;
  if (file) appendFileSync(file, measures.map((m) => JSON.stringify(m)).join('\n') + '\n');
}

export const formatRate = (value: number, unit: string) => `${Math.round(value).toLocaleString('en-US')} ${unit}`;
