import { collectDefaultMetrics, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { collectProcessMetrics } from './process-metrics.js';

const namesIn = async (registry: Registry) => (await registry.getMetricsAsJSON()).map((metric) => metric.name).sort();

describe('collectProcessMetrics', () => {
  it("registers every one of prom-client's default metrics but garbage-collection durations", async () => {
    const defaults = new Registry();
    collectDefaultMetrics({ register: defaults });
    const ours = new Registry();
    collectProcessMetrics(ours);
    const expected = (await namesIn(defaults)).filter((name) => name !== 'nodejs_gc_duration_seconds');
    expect(expected).toContain('nodejs_eventloop_lag_p99_seconds');
    expect(await namesIn(ours)).toEqual(expected);
  });
});
