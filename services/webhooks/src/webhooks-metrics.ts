import { Counter, Gauge, type Registry } from 'prom-client';
import type { Db } from '@partner/db';
import type { ServiceMetrics } from '@partner/http';
import type { AttemptOutcome } from './dispatcher/dispatcher.js';
import { countDisabledEndpoints, countDueDeliveries, oldestDueAgeSeconds, outboxLagSeconds } from './webhooks-metrics.repository.js';

/** Due deliveries are counted up to this many: past it the backlog is plainly large, and counting costs. */
const DUE_COUNT_CAP = 100_000;

/**
 * What only the webhooks service knows, beside every service's request metrics: the backlog (due
 * deliveries and how long the oldest has waited), the outbox's lag, disabled endpoints, read from
 * Postgres when Prometheus scrapes; and every attempt's outcome, counted as the dispatcher makes it.
 * A scrape while Postgres is away leaves the backlog series out rather than failing the whole page.
 */
export class WebhooksMetrics {
  private readonly attempts: Counter<'outcome'>;
  private readonly registers: Registry[];

  constructor(metrics: ServiceMetrics, db: Db) {
    const registers = [metrics.registry];
    this.registers = registers;
    this.attempts = new Counter({
      name: 'webhooks_delivery_attempts_total',
      help: 'Delivery attempts by outcome: succeeded (2xx), failed (retried later or not), skipped (endpoint deleted or disabled).',
      labelNames: ['outcome'],
      registers,
    });
    const fromDb = (name: string, help: string, read: () => Promise<number>) =>
      new Gauge({
        name,
        help,
        registers,
        async collect() {
          try {
            this.set(await read());
          } catch {
            this.reset();
          }
        },
      });
    fromDb('webhooks_due_deliveries', `Deliveries due now and not yet attempted (counted up to ${DUE_COUNT_CAP}).`, () =>
      countDueDeliveries(db, DUE_COUNT_CAP),
    );
    fromDb('webhooks_oldest_due_age_seconds', 'How long the longest-waiting due delivery has been due (0: none is).', () =>
      oldestDueAgeSeconds(db),
    );
    fromDb('webhooks_outbox_lag_seconds', 'Age of the oldest event not yet fanned out to endpoints (0: none waits).', () =>
      outboxLagSeconds(db),
    );
    fromDb('webhooks_disabled_endpoints', 'Endpoints disabled (by their owner, or automatically after failing), not deleted.', () =>
      countDisabledEndpoints(db),
    );
  }

  /** The outbox listener's state, read at each scrape (only a replica that dispatches has one). */
  watchListener(listener: { readonly listening: boolean; readonly timesLost: number }): void {
    new Gauge({
      name: 'webhooks_outbox_listener_listening',
      help: 'Whether the outbox listener LISTENs now (1), so new events go out at once; 0: they wait for the next poll (about a second).',
      registers: this.registers,
      collect() {
        this.set(listener.listening ? 1 : 0);
      },
    });
    new Counter({
      name: 'webhooks_outbox_listener_lost_total',
      help: 'Times the outbox listener lost its LISTEN: its connection failed, or its own probe went unheard. Steadily rising: it is routed through a PgBouncer in transaction mode (set WEBHOOK_LISTEN_URL).',
      registers: this.registers,
      collect() {
        this.reset();
        this.inc(listener.timesLost);
      },
    });
  }

  /** For the dispatcher's `onAttempt`. */
  readonly noteAttempt = (outcome: AttemptOutcome): void => {
    this.attempts.inc({ outcome });
  };
}
