// UTC bucketing of a metric range: daily buckets for 7d/30d/90d, ISO weeks (Monday 00:00 UTC) for 1y.

export type MetricRange = "7d" | "30d" | "90d" | "1y";
const DAY_MS = 86_400_000;

export interface BucketPlan {
  bucket: "day" | "week";
  /** Bucket start times, oldest first; the last one contains `now`. */
  starts: Date[];
  sizeMs: number;
}

export function planBuckets(range: MetricRange, now: Date): BucketPlan {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  if (range === "1y") {
    const mondayOffset = (new Date(today).getUTCDay() + 6) % 7;
    const thisWeek = today - mondayOffset * DAY_MS;
    const starts = Array.from({ length: 52 }, (_, i) => new Date(thisWeek - (51 - i) * 7 * DAY_MS));
    return { bucket: "week", starts, sizeMs: 7 * DAY_MS };
  }
  const days = { "7d": 7, "30d": 30, "90d": 90 }[range];
  const starts = Array.from({ length: days }, (_, i) => new Date(today - (days - 1 - i) * DAY_MS));
  return { bucket: "day", starts, sizeMs: DAY_MS };
}

/** Index of the bucket containing `at`, or -1. */
export function bucketIndex(plan: BucketPlan, at: Date): number {
  const first = plan.starts[0] as Date;
  const i = Math.floor((at.getTime() - first.getTime()) / plan.sizeMs);
  return i >= 0 && i < plan.starts.length ? i : -1;
}
