// A histogram whose label sets are bound once and observed without looking at labels again: every response observes one
// (server/observability/metrics.ts). prom-client's own child (`histogram.labels(…).observe`) validates and hashes its
// label object on every observation, 1.3–1.6 µs per call against 0.2 µs here (a loop of 10⁶ observations;
// docs/performance.md): an observation is a map lookup, a bucket search and three additions. Unlike prom-client's,
// reset() zeroes the series rather than dropping them, so a series a caller holds keeps counting. A scrape renders it
// through prom-client's registry exactly as prom-client's Histogram renders the same observations
// (test/unit/labelled-histogram.test.ts compares the text and the JSON).
import type { Registry } from "prom-client";

/** The counts of one label set. */
export interface BoundSeries {
  observe(value: number): void;
}

interface Series extends BoundSeries {
  readonly labels: Record<string, string>;
  /** Per bucket (not cumulative), the last one +Inf. */
  readonly counts: Float64Array;
  sum: number;
  count: number;
}

/** A sample as prom-client's registry formats it (its Histogram's export shape). */
interface Sample {
  labels: Record<string, string | number>;
  sharedLabels: Record<string, string>;
  value: number;
  metricName: string;
  /** prom-client's buckets carry null (no exemplars kept); its _sum and _count none. */
  exemplar?: null;
}

export class LabelledHistogram<L extends string> {
  readonly name: string;
  readonly help: string;
  private readonly labelNames: readonly L[];
  private readonly upperBounds: readonly number[];
  readonly type = "histogram";
  readonly aggregator = "sum";
  private readonly series = new Map<string, Series>();

  constructor(name: string, help: string, labelNames: readonly L[], upperBounds: readonly number[], registry: Registry) {
    this.name = name;
    this.help = help;
    this.labelNames = labelNames;
    this.upperBounds = upperBounds;
    registry.registerMetric(this as never);
  }

  /** The series of these label values (in labelNames' order), made on first use and found by its values after. */
  bind(...values: string[]): BoundSeries {
    const key = values.join("\u0000");
    let series = this.series.get(key);
    if (!series) {
      const labels = Object.fromEntries(this.labelNames.map((name, i) => [name, values[i] ?? ""]));
      series = newSeries(labels, this.upperBounds);
      this.series.set(key, series);
    }
    return series;
  }

  reset(): void {
    for (const series of this.series.values()) {
      series.counts.fill(0);
      series.sum = 0;
      series.count = 0;
    }
  }

  /** prom-client's registry reads this for the text format: cumulative buckets, +Inf, _sum and _count per series. */
  async getForPromString() {
    const values: Sample[] = [];
    for (const series of this.series.values()) {
      let cumulative = 0;
      this.upperBounds.forEach((le, i) => {
        cumulative += series.counts[i] as number;
        values.push({ labels: { le }, sharedLabels: series.labels, value: cumulative, metricName: `${this.name}_bucket`, exemplar: null });
      });
      values.push({
        labels: { le: "+Inf" },
        sharedLabels: series.labels,
        value: series.count,
        metricName: `${this.name}_bucket`,
        exemplar: null,
      });
      values.push({ labels: {}, sharedLabels: series.labels, value: series.sum, metricName: `${this.name}_sum` });
      values.push({ labels: {}, sharedLabels: series.labels, value: series.count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  /** The JSON form (registry.getMetricsAsJSON): each sample's labels in one object. */
  async get() {
    const metric = await this.getForPromString();
    return {
      ...metric,
      values: metric.values.map(({ labels, sharedLabels, ...sample }) => ({ ...sample, labels: { ...sharedLabels, ...labels } })),
    };
  }
}

function newSeries(labels: Record<string, string>, upperBounds: readonly number[]): Series {
  const counts = new Float64Array(upperBounds.length + 1);
  const series: Series = {
    labels,
    counts,
    sum: 0,
    count: 0,
    observe(value) {
      // As prom-client: the first bound at or above the value; a value above them all counts in +Inf only.
      let i = 0;
      while (i < upperBounds.length && value > (upperBounds[i] as number)) i++;
      counts[i] = (counts[i] as number) + 1;
      series.sum += value;
      series.count += 1;
    },
  };
  return series;
}
