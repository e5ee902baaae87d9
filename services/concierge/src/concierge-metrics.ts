import { Counter, Histogram } from 'prom-client';
import type { ServiceMetrics } from '@partner/http';

/** How a turn ended: answered whole, or why not. */
export type TurnOutcome = 'answered' | 'model_error' | 'allowance_exhausted' | 'provider_not_configured' | 'aborted';

/** Seconds from a turn's start to its first words: the model's latency and ours. */
const FIRST_DELTA_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * What only the concierge knows, beside every service's request metrics: time to the first delta,
 * turns by outcome (model errors and allowance refusals among them), and the model's tokens as it
 * reports them.
 */
export class ConciergeMetrics {
  private readonly firstDelta: Histogram<'mode'>;
  private readonly turns: Counter<'outcome' | 'mode'>;
  private readonly tokens: Counter<'kind'>;

  constructor(metrics: ServiceMetrics) {
    const registers = [metrics.registry];
    this.firstDelta = new Histogram({
      name: 'concierge_first_delta_seconds',
      help: 'Time from a turn’s start to its first delta, by mode (live: the configured model; test: the sandbox).',
      labelNames: ['mode'],
      buckets: FIRST_DELTA_BUCKETS,
      registers,
    });
    this.turns = new Counter({
      name: 'concierge_turns_total',
      help: 'Turns by outcome: answered, model_error, allowance_exhausted, provider_not_configured, aborted (the caller left).',
      labelNames: ['outcome', 'mode'],
      registers,
    });
    this.tokens = new Counter({
      name: 'concierge_model_tokens_total',
      help: 'Tokens the live model reported using, prompt and completion.',
      labelNames: ['kind'],
      registers,
    });
  }

  firstDeltaAfter(mode: 'live' | 'test', seconds: number): void {
    this.firstDelta.observe({ mode }, seconds);
  }

  turnEnded(mode: 'live' | 'test', outcome: TurnOutcome): void {
    this.turns.inc({ mode, outcome });
  }

  readonly noteUsage = (usage: { prompt: number; completion: number }): void => {
    this.tokens.inc({ kind: 'prompt' }, usage.prompt);
    this.tokens.inc({ kind: 'completion' }, usage.completion);
  };
}
