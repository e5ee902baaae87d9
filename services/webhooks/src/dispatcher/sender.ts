import { Agent, request } from 'undici';
import { withoutTracePropagation } from '@partner/tracing';
import { checkTargetUrl, safeLookup, type TargetPolicy } from '../targets/target-policy.js';

export interface SendOutcome {
  ok: boolean;
  status: number | null;
  durationMs: number;
  error: string | null;
  /** From a Retry-After header on 429 or 503. */
  retryAfterMs: number | null;
}

/** The longest an attempt takes, connecting included: the request is cut off after it. */
export const SEND_TIMEOUT_MS = 10_000;

/** Retry-After as seconds or as an HTTP date, measured from `now`. */
function parseRetryAfter(value: string | string[] | undefined, now: Date): number | null {
  const raw = Array.isArray(value) ? value[0] : value;
  if (!raw) return null;
  if (/^\d+$/.test(raw)) return Number(raw) * 1000;
  const date = Date.parse(raw);
  return Number.isNaN(date) ? null : Math.max(0, date - now.getTime());
}

/**
 * POSTs one attempt: the target checked again, its name resolved once and the socket opened to the
 * address that passed, 10 seconds at most, redirects not followed, any 2xx an acknowledgement.
 * Connections are kept alive per origin (at most 30 s idle): each was opened to an address the policy
 * let through, and a new TCP (and TLS) handshake per attempt cost more than the attempt itself.
 */
export class WebhookSender {
  private readonly agent: Agent;

  /** `now`: the service's clock, which a Retry-After date is measured from (the schedule runs on it too). */
  constructor(
    private readonly policy: TargetPolicy,
    private readonly now: () => Date,
  ) {
    this.agent = new Agent({
      connect: { lookup: safeLookup(policy), timeout: SEND_TIMEOUT_MS },
      headersTimeout: SEND_TIMEOUT_MS,
      bodyTimeout: SEND_TIMEOUT_MS,
      keepAliveMaxTimeout: 30_000,
    });
  }

  /** `timeoutMs`: a shorter wait than the 10 seconds (an answer waits on it), never a longer one. */
  async send(url: string, body: string, headers: Record<string, string>, options: { timeoutMs?: number } = {}): Promise<SendOutcome> {
    const timeoutMs = Math.min(options.timeoutMs ?? SEND_TIMEOUT_MS, SEND_TIMEOUT_MS);
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    try {
      checkTargetUrl(url, this.policy);
      // The receiver is a third party: the delivery's span is ours, its trace context stays here.
      const res = await withoutTracePropagation(() =>
        request(url, {
          method: 'POST',
          dispatcher: this.agent,
          headers: { 'content-type': 'application/json', 'user-agent': 'PartnerPlatform-Webhooks/1.0', ...headers },
          body,
          signal: AbortSignal.timeout(timeoutMs),
        }),
      );
      await res.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
      const ok = res.statusCode >= 200 && res.statusCode < 300;
      return {
        ok,
        status: res.statusCode,
        durationMs: elapsed(),
        error: ok ? null : `HTTP ${res.statusCode}`,
        retryAfterMs: res.statusCode === 429 || res.statusCode === 503 ? parseRetryAfter(res.headers['retry-after'], this.now()) : null,
      };
    } catch (err) {
      const timedOut = err instanceof Error && err.name === 'TimeoutError';
      const message = timedOut ? `no answer within ${timeoutMs / 1000} s` : err instanceof Error ? err.message : String(err);
      return { ok: false, status: null, durationMs: elapsed(), error: message.slice(0, 500), retryAfterMs: null };
    }
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}
