import { createHash } from "node:crypto";
import type { MetricSpec } from "./catalogue.ts";

/** Deterministic illustrative values for a metric with no live data: the same metric and bucket always give the
 * same value, so dashboards and tests are stable. Clearly labelled `source: "sample"` by the caller. */
export function sampleValue(metric: MetricSpec, bucketStart: Date): number {
  const digest = createHash("sha256").update(`${metric.id}|${bucketStart.toISOString()}`).digest();
  const unit = digest.readUInt32BE(0) / 0xffffffff;
  if (metric.unit === "count") return Math.round(5 + unit * 45);
  return Math.round((500 + unit * 9500) * 100) / 100;
}
