import type { Metric, MetricValueWithName, Registry } from 'prom-client';

/** One series' counts: per bucket (not cumulative; the last is +Inf), their sum and count. */
interface Series {
  labels: { route: string; method: string; status_class: string };
  counts: Float64Array;
  sum: number;
  count: number;
}

/**
 * `http_request_duration_seconds`, kept here and exported through prom-client's registry (the metric
 * interface its own types implement: `get`, `reset`). Every answer is observed once, on every service:
 * prom-client's Histogram validates and hashes its labels on each observation, bound child or not, which
 * the observability benchmark found to be a third of what observing a cheap request costs
 * (docs/benchmarks.md). Here a series is looked up once per route, method and status class, and an
 * observation is a bucket search and three additions.
 */
export class RequestHistogram {
  readonly name = 'http_request_duration_seconds';
  readonly help = 'Time from a request’s arrival to the end of its answer.';
  readonly type = 'histogram' as const;
  readonly aggregator = 'sum' as const;
  private readonly series = new Map<string, Series>();

  constructor(
    private readonly upperBounds: readonly number[],
    registry: Registry,
  ) {
    registry.registerMetric(this as unknown as Metric);
  }

  observe(route: string, method: string, statusClass: string, seconds: number): void {
    const id = `${method} ${statusClass} ${route}`;
    let series = this.series.get(id);
    if (!series) {
      series = { labels: { route, method, status_class: statusClass }, counts: new Float64Array(this.upperBounds.length + 1), sum: 0, count: 0 };
      this.series.set(id, series);
    }
    let bucket = 0;
    while (bucket < this.upperBounds.length && seconds > this.upperBounds[bucket]!) bucket++;
    series.counts[bucket]!++;
    series.sum += seconds;
    series.count++;
  }

  /** What the registry reads at each scrape (prom-client's declared types name the type by enum; it reads the string). */
  get(): Promise<{ name: string; help: string; type: 'histogram'; aggregator: 'sum'; values: MetricValueWithName<string>[] }> {
    const values: MetricValueWithName<string>[] = [];
    for (const { labels, counts, sum, count } of this.series.values()) {
      let cumulative = 0;
      this.upperBounds.forEach((bound, i) => {
        cumulative += counts[i]!;
        values.push({ metricName: `${this.name}_bucket`, labels: { ...labels, le: bound }, value: cumulative });
      });
      values.push({ metricName: `${this.name}_bucket`, labels: { ...labels, le: '+Inf' }, value: count });
      values.push({ metricName: `${this.name}_sum`, labels, value: sum });
      values.push({ metricName: `${this.name}_count`, labels, value: count });
    }
    return Promise.resolve({ name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values });
  }

  reset(): void {
    this.series.clear();
  }
}
