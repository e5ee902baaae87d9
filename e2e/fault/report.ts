/** One figure of a case; `met` is set when the issue gives the figure a target. */
export interface Row {
  figure: string;
  value: string;
  target?: string;
  met?: boolean;
}

export interface CaseReport {
  title: string;
  rows: Row[];
  notes: string[];
}

/** The deadline a request is held to: the services' REQUEST_DEADLINE_MS (8 s by default). */
export const requestDeadlineMs = () => Number(process.env.REQUEST_DEADLINE_MS ?? 8000);
/** An answer sent at the deadline still crosses loopback and the client's event loop. */
export const DEADLINE_SLACK_MS = 500;
export const RECOVERY_TARGET_MS = 5000;

export const ms = (value: number) => `${Math.round(value).toLocaleString('en-US')} ms`;
export const n = (value: number) => value.toLocaleString('en-US');
export const percent = (share: number | null) => (share === null ? 'n/a' : `${(share * 100).toFixed(1)} %`);

export function verdict(row: Row): string {
  return row.met === undefined ? '' : row.met ? 'MET' : 'MISSED';
}

/** A markdown table, readable in a terminal and pasted as is into docs/resilience.md. */
export function renderCase(report: CaseReport): string {
  const escape = (text: string) => text.replace(/\|/g, '\\|');
  const lines = [
    `### ${report.title}`,
    '',
    '| Figure | Value | Target | |',
    '|---|---|---|---|',
    ...report.rows.map((row) => `| ${escape(row.figure)} | ${escape(row.value)} | ${escape(row.target ?? '')} | ${verdict(row)} |`),
  ];
  if (report.notes.length) lines.push('', ...report.notes.map((note) => `- ${note}`));
  return lines.join('\n');
}

export function missedTargets(reports: CaseReport[]): Row[] {
  return reports.flatMap((report) => report.rows.filter((row) => row.met === false));
}

export function renderSummary(reports: CaseReport[]): string {
  const lines = ['### Summary', '', '| Case | Targets met | Missed |', '|---|---|---|'];
  for (const report of reports) {
    const targeted = report.rows.filter((row) => row.met !== undefined);
    const missed = targeted.filter((row) => !row.met);
    lines.push(
      `| ${report.title} | ${targeted.length - missed.length} of ${targeted.length} | ${missed.map((row) => row.figure).join('; ') || '—'} |`,
    );
  }
  return lines.join('\n');
}
