import type { AuthContext } from "../../context.ts";
import type { Db } from "../../db/open-database.ts";
import { notFound } from "../../errors/service-error.ts";
import type { components } from "../../generated/openapi.ts";
import { bucketIndex, type MetricRange, planBuckets } from "./buckets.ts";
import { METRIC_CATALOGUE } from "./catalogue.ts";
import { sampleValue } from "./sample-series.ts";

export type MetricDto = components["schemas"]["Metric"];

export interface GetMetricOptions {
  prisma: Db;
  auth: AuthContext;
  metricId: string;
  range: MetricRange;
  now?: Date;
}

export async function getMetric({ prisma, auth, metricId, range, now = new Date() }: GetMetricOptions): Promise<MetricDto> {
  const spec = METRIC_CATALOGUE.get(metricId);
  if (!spec) throw notFound("Metric");
  const plan = planBuckets(range, now);
  const events = await prisma.activityEvent.findMany({
    where: {
      organizationId: auth.organizationId,
      environment: auth.environment,
      type: spec.eventType,
      createdAt: { gte: plan.starts[0] },
    },
    select: { createdAt: true, amountUsd: true },
  });
  const live = events.length > 0;
  // Sums are accumulated in integer cents of a cent (10^-4) to avoid float drift, then converted once.
  const totals = plan.starts.map(() => 0n);
  for (const event of events) {
    const i = bucketIndex(plan, event.createdAt);
    if (i < 0) continue;
    totals[i] = (totals[i] as bigint) + (spec.aggregation === "count" ? 10_000n : BigInt(event.amountUsd?.mul(10_000).toFixed(0) ?? "0"));
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
