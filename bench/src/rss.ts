import { readFileSync } from 'node:fs';

/** A process's resident set in MB, from the kernel's own account (`VmRSS` in /proc/<pid>/status). */
export function residentMegabytes(pid: number): number {
  const line = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!line) throw new Error(`no VmRSS for process ${pid}`);
  return Number(line[1]) / 1024;
}
