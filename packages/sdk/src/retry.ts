/** Time as the client sees it; tests pass their own so that nothing sleeps for real. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves after `ms`, or rejects with the signal's reason once it aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason as Error);
      const done = () => {
        signal?.removeEventListener('abort', abort);
        resolve();
      };
      const timer = setTimeout(done, ms);
      const abort = () => {
        clearTimeout(timer);
        reject(signal!.reason as Error);
      };
      signal?.addEventListener('abort', abort, { once: true });
    }),
};

export interface RetryOptions {
  /** Retries after the first attempt (default 3). */
  maxRetries?: number;
  /**
   * The most one call waits in all (default 60 s, a rate-limit window). A `Retry-After` that would take
   * longer (a monthly quota, a daily cap) is not waited for: the error is thrown at once.
   */
  maxElapsedMs?: number;
  /** First backoff when the answer names no `Retry-After` (default 500 ms), doubling up to `maxDelayMs`. */
  baseDelayMs?: number;
  /** Longest backoff without `Retry-After` (default 8 s). */
  maxDelayMs?: number;
  /**
   * Up to this much is added at random to every wait (default 500 ms), so that clients refused in the
   * same second do not all come back in the same second.
   */
  jitterMs?: number;
}

const DEFAULTS: Required<RetryOptions> = { maxRetries: 3, maxElapsedMs: 60_000, baseDelayMs: 500, maxDelayMs: 8_000, jitterMs: 500 };

/** What the API answers when asking to come back later: rate limits and quotas (429), outages (503). */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 503]);

/** `Retry-After` in milliseconds: delta-seconds or an HTTP date (RFC 9110 10.2.3); null when absent or unreadable. */
export function parseRetryAfter(value: string | null, nowMs: number): number | null {
  if (value === null) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? null : Math.max(0, date - nowMs);
}

/** The options given over the defaults: one given as undefined (`{ baseDelayMs: config.x }`) keeps its default. */
function withDefaults(given: RetryOptions = {}): Required<RetryOptions> {
  const options = { ...DEFAULTS };
  for (const name of Object.keys(DEFAULTS) as (keyof RetryOptions)[]) options[name] = given[name] ?? DEFAULTS[name];
  return options;
}

/**
 * How long to wait before retry number `retry` (1 for the first), or null to give up. Never sooner than
 * `Retry-After`; without one, exponential backoff. Gives up past `maxRetries`, or when the wait would
 * take the call beyond `maxElapsedMs` since its first attempt.
 */
export function planRetry(input: {
  retry: number;
  status: number;
  retryAfterMs: number | null;
  elapsedMs: number;
  random: () => number;
  options?: RetryOptions;
}): number | null {
  const options = withDefaults(input.options);
  if (!RETRYABLE_STATUSES.has(input.status) || input.retry > options.maxRetries) return null;
  const backoff = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (input.retry - 1));
  const wait = input.retryAfterMs ?? backoff;
  const left = options.maxElapsedMs - input.elapsedMs;
  if (wait > left) return null;
  return Math.ceil(Math.min(wait + input.random() * options.jitterMs, left));
}
