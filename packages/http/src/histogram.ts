import type { Metric, MetricValueWithName, Registry } from 'prom-client';

/** One series' counts: per bucket (not cumulative; the last is +Inf), their sum and count. */
interface Series {
  labels: Record<string, string>;
  counts: Float64Array;
  sum: number;
  count: number;
}

/** Label values to the next level, down to the series of the last label. */
type Level = Map<string, Level | Series>;

/**
 * A Prometheus histogram kept here and exported through prom-client's registry (the metric interface
 * its own types implement: `get`, `reset`), for what is observed on every request. prom-client's
 * Histogram validates and hashes its labels on each observation, bound child or not, which the
 * observability benchmark found to be a third of what observing a cheap request costs
 * (docs/benchmarks.md). Here a series is found by one map lookup per label value (short strings from
 * small sets: route templates, methods, status classes, service names; most are constants whose hashes
 * V8 keeps), and an observation is a bucket search and three additions.
 */
export class LabelledHistogram {
  readonly type = 'histogram' as const;
  readonly aggregator = 'sum' as const;
  private root: Level = new Map();
  private all: Series[] = [];

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly labelNames: readonly string[],
    private readonly upperBounds: readonly number[],
    registry: Registry,
  ) {
    registry.registerMetric(this as unknown as Metric);
  }

  /** `labelValues` in the order of the label names. */
  observe(labelValues: readonly string[], seconds: number): void {
    const series = this.seriesOf(labelValues);
    let bucket = 0;
    while (bucket < this.upperBounds.length && seconds > this.upperBounds[bucket]!) bucket++;
    series.counts[bucket]!++;
    series.sum += seconds;
    series.count++;
  }

  private seriesOf(labelValues: readonly string[]): Series {
    let level = this.root;
    const last = labelValues.length - 1;
    for (let i = 0; i < last; i++) {
      let next = level.get(labelValues[i]!) as Level | undefined;
      if (!next) level.set(labelValues[i]!, (next = new Map()));
      level = next;
    }
    let series = level.get(labelValues[last]!) as Series | undefined;
    if (!series) {
      const labels = Object.fromEntries(this.labelNames.map((name, i) => [name, labelValues[i]!]));
      series = { labels, counts: new Float64Array(this.upperBounds.length + 1), sum: 0, count: 0 };
      level.set(labelValues[last]!, series);
      this.all.push(series);
    }
    return series;
  }

  /** What the registry reads at each scrape (prom-client's declared types name the type by enum; it reads the string). */
  get(): Promise<{ name: string; help: string; type: 'histogram'; aggregator: 'sum'; values: MetricValueWithName<string>[] }> {
    const values: MetricValueWithName<string>[] = [];
    for (const { labels, counts, sum, count } of this.all) {
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
    this.root = new Map();
    this.all = [];
  }
}
