import { Agent, type Dispatcher } from 'undici';
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

/** An answer's body is read up to this much and dropped; past it the connection is closed. */
const ANSWER_READ_LIMIT = 64 * 1024;

/** An attempt whose time ran out: named as such in its outcome. */
class AttemptTimedOut extends Error {}

/**
 * POSTs one attempt: the target checked again, its name resolved once and the socket opened to the
 * address that passed, 10 seconds at most, redirects not followed, any 2xx an acknowledgement.
 * Connections are kept alive per origin (at most 30 s idle): each was opened to an address the policy
 * let through, and a new TCP (and TLS) handshake per attempt cost more than the attempt itself.
 *
 * Driven through undici's dispatch handlers with one timer per attempt: `request()` with an
 * `AbortSignal.timeout` cost about 10 µs more CPU per attempt (a response stream, a promise chain and
 * an abort signal kept alive for the whole 10 s), more than a third of a bare POST's cost (decisions).
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
  send(url: string, body: string, headers: Record<string, string>, options: { timeoutMs?: number } = {}): Promise<SendOutcome> {
    const timeoutMs = Math.min(options.timeoutMs ?? SEND_TIMEOUT_MS, SEND_TIMEOUT_MS);
    const started = performance.now();
    const failed = (err: unknown): SendOutcome => {
      const message =
        err instanceof AttemptTimedOut ? `no answer within ${timeoutMs / 1000} s` : err instanceof Error ? err.message : String(err);
      return {
        ok: false,
        status: null,
        durationMs: Math.round(performance.now() - started),
        error: message.slice(0, 500),
        retryAfterMs: null,
      };
    };
    let target: URL;
    try {
      target = checkTargetUrl(url, this.policy);
    } catch (err) {
      return Promise.resolve(failed(err));
    }
    return new Promise((resolve) => {
      let controller: Dispatcher.DispatchController | null = null;
      let cutOff: Error | null = null;
      let settled = false;
      // Once the status is in, the outcome is known: a body that times out, breaks or runs long after it
      // changes nothing but the connection, which is closed.
      let status: number | null = null;
      let retryAfter: string | string[] | undefined;
      let read = 0;
      /** The outcome as it stands: the status once it is in, else why there is none. */
      const settle = (why?: unknown) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (status === null) return resolve(failed(why));
        const ok = status >= 200 && status < 300;
        resolve({
          ok,
          status,
          durationMs: Math.round(performance.now() - started),
          error: ok ? null : `HTTP ${status}`,
          retryAfterMs: status === 429 || status === 503 ? parseRetryAfter(retryAfter, this.now()) : null,
        });
      };
      const cut = (reason: Error) => {
        cutOff ??= reason;
        controller?.abort(reason);
      };
      // Answered when the time is up even while still connecting; the request is aborted once it starts.
      const timer = setTimeout(() => {
        const timedOut = new AttemptTimedOut();
        settle(timedOut);
        cut(timedOut);
      }, timeoutMs);
      const handler: Dispatcher.DispatchHandler = {
        onRequestStart: (started) => {
          controller = started;
          if (cutOff) started.abort(cutOff);
        },
        onResponseStart: (_controller, statusCode, headers) => {
          // An interim answer (100 Continue, 103 Early Hints) is not the answer: the final one follows.
          if (statusCode < 200) return;
          status = statusCode;
          retryAfter = headers['retry-after'];
        },
        onResponseData: (_controller, chunk: Buffer) => {
          read += chunk.length;
          if (read > ANSWER_READ_LIMIT) {
            settle();
            cut(new Error(`the answer passed ${ANSWER_READ_LIMIT} bytes`));
          }
        },
        onResponseEnd: () => settle(),
        onResponseError: (_controller, err) => settle(cutOff ?? err),
      };
      try {
        // The receiver is a third party: the delivery's span is ours, its trace context stays here.
        withoutTracePropagation(() =>
          this.agent.dispatch(
            {
              origin: target.origin,
              path: target.pathname + target.search,
              method: 'POST',
              headers: { 'content-type': 'application/json', 'user-agent': 'PartnerPlatform-Webhooks/1.0', ...headers },
              body,
            },
            handler,
          ),
        );
      } catch (err) {
        settle(err);
      }
    });
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}
