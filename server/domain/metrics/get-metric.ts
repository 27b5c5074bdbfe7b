import type { AuthContext } from "../../context.ts";
import type { Queryable } from "../../db/kysely.ts";
import { ownedBy } from "../../db/owned-by.ts";
import { notFound } from "../../errors/service-error.ts";
import type { components } from "../../generated/openapi.ts";
import { numericToMinor } from "../../lib/money/minor-units.ts";
import { bucketIndex, type MetricRange, planBuckets } from "./buckets.ts";
import { METRIC_CATALOGUE } from "./catalogue.ts";
import { sampleValue } from "./sample-series.ts";

export type MetricDto = components["schemas"]["Metric"];

export interface GetMetricOptions {
  auth: AuthContext;
  metricId: string;
  range: MetricRange;
  now?: Date;
}

export async function getMetric(db: Queryable, { auth, metricId, range, now = new Date() }: GetMetricOptions): Promise<MetricDto> {
  const spec = METRIC_CATALOGUE.get(metricId);
  if (!spec) throw notFound("Metric");
  const plan = planBuckets(range, now);
  const events = await db
    .selectFrom("ActivityEvent")
    .select(["createdAt", "amountUsd"])
    .where(ownedBy(auth))
    .where("type", "=", spec.eventType)
    .where("createdAt", ">=", plan.starts[0] as Date)
    .execute();
  const live = events.length > 0;
  // Sums are accumulated in integer cents of a cent (10^-4) to avoid float drift, then converted once.
  const totals = plan.starts.map(() => 0n);
  for (const event of events) {
    const i = bucketIndex(plan, event.createdAt);
    if (i < 0) continue;
    totals[i] =
      (totals[i] as bigint) + (spec.aggregation === "count" ? 10_000n : event.amountUsd === null ? 0n : numericToMinor(event.amountUsd, 4));
  }
  const points = plan.starts.map((start, i) => ({
    timestamp: start.toISOString(),
    value: live ? Number(totals[i]) / 10_000 : sampleValue(spec, start),
  }));
  const { eventType: _eventType, ...definition } = spec;
  return {
    metricId,
    range,
    definition: { ...definition, bucket: plan.bucket },
    points,
    latest: points[points.length - 1] as MetricDto["latest"],
    source: live ? "live" : "sample",
  };
}
