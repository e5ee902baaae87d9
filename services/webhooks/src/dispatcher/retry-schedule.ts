/** Spec 6.2 and DESIGN.md section 4: 8 attempts; after attempt n fails the next waits base × 2^(n-1). */
export const MAX_ATTEMPTS = 8;

export function retryDelayMs(failedAttempt: number, baseMs: number): number | null {
  if (failedAttempt >= MAX_ATTEMPTS) return null;
  return baseMs * 2 ** (failedAttempt - 1);
}

/** A Retry-After on 429/503 is honoured within the schedule: no sooner than planned, no later than the step after. */
export function withRetryAfter(scheduledMs: number, retryAfterMs: number | null): number {
  if (retryAfterMs === null) return scheduledMs;
  return Math.min(Math.max(scheduledMs, retryAfterMs), scheduledMs * 2);
}
