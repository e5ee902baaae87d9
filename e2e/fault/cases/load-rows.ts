import { count, failuresByCode, formatCounts, longestMs, recoveryMs, served, unavailableWithoutRetryAfter } from '../figures.ts';
import { DEADLINE_SLACK_MS, ms, n, RECOVERY_TARGET_MS, requestDeadlineMs, type Row } from '../report.ts';
import type { UnderLoad } from './context.ts';

/** The figures every fault under load reports, with the targets. */
export function loadRows(run: UnderLoad): Row[] {
  const { samples } = run;
  const deadline = requestDeadlineMs();
  const longest = longestMs(samples);
  const recovery = recoveryMs(samples, run.healedAt);
  const internalErrors = count(samples, (s) => s.status === 500);
  return [
    { figure: 'requests answered (whole run)', value: n(samples.length) },
    { figure: 'served (2xx)', value: n(served(samples)) },
    { figure: '5xx and no answer, by status and code', value: formatCounts(failuresByCode(samples)) },
    { figure: '`500` answers', value: n(internalErrors), target: '0', met: internalErrors === 0 },
    { figure: '`503` without Retry-After', value: n(unavailableWithoutRetryAfter(samples)) },
    {
      figure: 'longest request',
      value: `${ms(longest)} (${n(count(samples, (s) => s.durationMs > deadline + DEADLINE_SLACK_MS))} over the deadline)`,
      target: `≤ ${ms(deadline)} deadline`,
      met: longest <= deadline + DEADLINE_SLACK_MS,
    },
    {
      figure: 'recovery after the fault ended',
      value: recovery === null ? 'not recovered before the run stopped' : ms(recovery),
      target: `< ${ms(RECOVERY_TARGET_MS)}`,
      met: recovery !== null && recovery < RECOVERY_TARGET_MS,
    },
    { figure: 'service log bytes written', value: n(run.logBytes) },
  ];
}
