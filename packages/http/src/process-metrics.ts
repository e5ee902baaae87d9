import { createRequire } from 'node:module';
import { collectDefaultMetrics, type Registry } from 'prom-client';

/** A prom-client default collector: registers its metrics and keeps them current. */
type Collector = (registry: Registry, config: { eventLoopMonitoringPrecision: number }) => void;

/** Left out: `nodejs_gc_duration_seconds`, whose `PerformanceObserver` sees every collection. */
const LEFT_OUT = new Set(['gc']);

const require = createRequire(import.meta.url);

/**
 * prom-client's default metrics (process CPU and memory, file descriptors, event-loop lag, heap,
 * handles, version) but for garbage-collection durations: its observer of every collection cost the
 * catalog 6 % of its item-detail throughput (docs/benchmarks.md, "Observability overhead"), and no
 * panel or alert reads it. prom-client has no switch for one default collector, so each is loaded
 * by the name its `metricsList` gives; the metrics test holds the names the dashboard and alerts use.
 */
export function collectProcessMetrics(registry: Registry): void {
  for (const name of collectDefaultMetrics.metricsList) {
    if (LEFT_OUT.has(name)) continue;
    (require(`prom-client/lib/metrics/${name}`) as Collector)(registry, { eventLoopMonitoringPrecision: 10 });
  }
}
