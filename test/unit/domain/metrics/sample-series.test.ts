// Sample series (docs/design.md "Metrics"): with no event in the window a metric is `source: "sample"` — deterministic
// values derived from the metric id and the bucket, so the same metric and bucket always give the same value. Counts are
// whole numbers, USD values have cents.
import { describe, expect, it } from "vitest";
import { planBuckets } from "../../../../server/domain/metrics/buckets.ts";
import { METRIC_CATALOGUE, type MetricSpec } from "../../../../server/domain/metrics/catalogue.ts";
import { sampleValue } from "../../../../server/domain/metrics/sample-series.ts";

const metrics = [...METRIC_CATALOGUE.values()];
const count = metrics.find((m) => m.unit === "count") as MetricSpec;
const usd = metrics.find((m) => m.unit === "usd") as MetricSpec;
const year = planBuckets("1y", new Date("2026-11-22T15:30:00.000Z")).starts;
const days = planBuckets("90d", new Date("2026-11-22T15:30:00.000Z")).starts;

describe("sampleValue", () => {
  it("the catalogue has both units", () => {
    expect(count).toBeDefined();
    expect(usd).toBeDefined();
  });

  it.each([
    ["count", count, 5, 50],
    ["usd", usd, 500, 10_000],
  ] as const)("%s values stay in their sample band", (_unit, metric, low, high) => {
    for (const start of [...days, ...year]) {
      const value = sampleValue(metric, start);
      expect(value).toBeGreaterThanOrEqual(low);
      expect(value).toBeLessThanOrEqual(high);
    }
  });

  it("count values are whole numbers; usd values have at most two decimals", () => {
    for (const start of days) {
      expect(Number.isInteger(sampleValue(count, start))).toBe(true);
      const cents = sampleValue(usd, start) * 100;
      expect(Math.abs(cents - Math.round(cents))).toBeLessThan(1e-6);
    }
  });

  it.each(metrics.map((m) => [m.id, m] as const))("%s: the same bucket always gives the same value", (_id, metric) => {
    const start = new Date("2026-11-16T00:00:00.000Z");
    expect(sampleValue(metric, new Date(start))).toBe(sampleValue(metric, start));
  });

  it("varies with the bucket and with the metric id", () => {
    expect(new Set(days.map((d) => sampleValue(usd, d))).size).toBeGreaterThan(days.length / 2);
    const start = days[0] as Date;
    const renamed = { ...usd, id: `${usd.id}-other` };
    expect(sampleValue(renamed, start)).not.toBe(sampleValue(usd, start));
  });
});
