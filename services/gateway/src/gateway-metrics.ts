import { Counter } from 'prom-client';
import { LabelledHistogram, type ServiceMetrics } from '@partner/http';
import { AuthFailure } from './auth/authenticate.js';
import type { ServiceName } from './routing/route-table.js';

/** Seconds until a service starts its answer: from a cached read to the upstream timeout. */
const UPSTREAM_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * What only the gateway knows, beside every service's request metrics: why keys were refused (the
 * answer says `invalid_api_key` whatever the reason), and how the services behind it answer. Refusals
 * by limit and quota are `http_errors_total{code}` (`rate_limited`, `quota_exceeded`...).
 */
export class GatewayMetrics {
  private readonly authFailures: Counter<'reason'>;
  private readonly upstream: LabelledHistogram;

  constructor(metrics: ServiceMetrics) {
    const registers = [metrics.registry];
    this.authFailures = new Counter({
      name: 'gateway_auth_failures_total',
      help: 'Requests refused with invalid_api_key, by reason (missing, malformed, unknown, revoked, expired).',
      labelNames: ['reason'],
      registers,
    });
    // Observed on every forwarded request: kept as the request histogram is.
    this.upstream = new LabelledHistogram(
      'gateway_upstream_duration_seconds',
      'Time until the service behind a route started its answer (outcome answered), or failed to (error).',
      ['upstream', 'outcome'],
      UPSTREAM_BUCKETS,
      metrics.registry,
    );
  }

  /** A request failed at the edge: counted when a key was the reason. */
  noteFailure(err: unknown): void {
    const cause = (err as { cause?: unknown }).cause;
    if (cause instanceof AuthFailure) this.authFailures.inc({ reason: cause.reason });
  }

  /** For `ServiceProxy`: one forwarded request, answered or not. */
  readonly observeUpstream = (service: ServiceName, outcome: 'answered' | 'error', seconds: number): void => {
    this.upstream.observe([service, outcome], seconds);
  };
}
