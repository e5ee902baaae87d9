import type { Sample } from './load.ts';

const isServed = (sample: Sample) => sample.status >= 200 && sample.status < 300;
/** No answer, or a 5xx: what an outage looks like from the client. */
const isFailure = (sample: Sample) => sample.status === 0 || sample.status >= 500;

/** 5xx answers and unanswered requests, counted by "status code" ("0 client_timeout" for no answer). */
export function failuresByCode(samples: Sample[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const sample of samples) {
    if (!isFailure(sample)) continue;
    const key = `${sample.status} ${sample.code ?? ''}`.trim();
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return new Map([...counts].sort((a, b) => b[1] - a[1]));
}

export function formatCounts(counts: Map<string, number>): string {
  return counts.size ? [...counts].map(([key, value]) => `${key}: ${value.toLocaleString('en-US')}`).join('; ') : 'none';
}

export const count = (samples: Sample[], predicate: (sample: Sample) => boolean) => samples.reduce((n, s) => n + (predicate(s) ? 1 : 0), 0);

export function served(samples: Sample[]): number {
  return count(samples, isServed);
}

/**
 * Of the requests answered while the fault lasted, those the rate limit let through (everything but
 * 429) and how many of them were served.
 */
export function servedDuring(samples: Sample[], from: number, to: number) {
  const during = samples.filter((s) => s.answeredAt >= from && s.answeredAt <= to);
  const allowed = during.filter((s) => s.status !== 429);
  const servedCount = count(allowed, isServed);
  return {
    answered: during.length,
    allowed: allowed.length,
    served: servedCount,
    share: allowed.length ? servedCount / allowed.length : null,
  };
}

/**
 * Time from the end of the fault (restart, SIGCONT) to the first served answer after which no request
 * started since the fault ended failed; null when the run ended before that.
 */
export function recoveryMs(samples: Sample[], healedAt: number): number | null {
  const after = samples.filter((s) => s.startedAt >= healedAt);
  const lastFailure = Math.max(healedAt, ...after.filter(isFailure).map((s) => s.answeredAt));
  const firstGood = Math.min(...after.filter((s) => isServed(s) && s.answeredAt >= lastFailure).map((s) => s.answeredAt));
  return Number.isFinite(firstGood) ? firstGood - healedAt : null;
}

export function longestMs(samples: Sample[]): number {
  return samples.reduce((max, s) => Math.max(max, s.durationMs), 0);
}

/** 503s without Retry-After: a client cannot tell when to come back. */
export function unavailableWithoutRetryAfter(samples: Sample[]): number {
  return count(samples, (s) => s.status === 503 && !s.retryAfter);
}
