import { describe, expect, it } from "vitest";
import { bucketIndex, type MetricRange, planBuckets } from "../../server/domain/metrics/buckets.ts";

const DAY_MS = 86_400_000;
const at = (iso: string) => new Date(iso);

describe("planBuckets: daily ranges", () => {
  it.each([
    ["7d", 7],
    ["30d", 30],
    ["90d", 90],
  ] as const)("%s has %i consecutive UTC days ending today", (range, count) => {
    const now = at("2026-11-22T15:30:00.000Z");
    const plan = planBuckets(range, now);
    expect(plan.bucket).toBe("day");
    expect(plan.sizeMs).toBe(DAY_MS);
    expect(plan.starts).toHaveLength(count);
    expect(plan.starts.at(-1)?.toISOString()).toBe("2026-11-22T00:00:00.000Z");
    for (let i = 1; i < count; i++) expect((plan.starts[i] as Date).getTime() - (plan.starts[i - 1] as Date).getTime()).toBe(DAY_MS);
  });

  it.each([
    ["just after midnight", "2026-11-22T00:00:00.000Z", "2026-11-22T00:00:00.000Z", "2026-11-16T00:00:00.000Z"],
    ["just before midnight", "2026-11-22T23:59:59.999Z", "2026-11-22T00:00:00.000Z", "2026-11-16T00:00:00.000Z"],
    ["across a month end", "2026-03-02T08:00:00.000Z", "2026-03-02T00:00:00.000Z", "2026-02-24T00:00:00.000Z"],
    ["across a year end", "2027-01-03T08:00:00.000Z", "2027-01-03T00:00:00.000Z", "2026-12-28T00:00:00.000Z"],
    ["in a leap year", "2028-03-01T12:00:00.000Z", "2028-03-01T00:00:00.000Z", "2028-02-24T00:00:00.000Z"],
  ])("7d %s", (_name, now, last, first) => {
    const { starts } = planBuckets("7d", at(now));
    expect(starts.at(-1)?.toISOString()).toBe(last);
    expect(starts[0]?.toISOString()).toBe(first);
  });
});

describe("planBuckets: 1y in ISO weeks", () => {
  it.each([
    ["a Sunday", "2026-11-22T15:00:00.000Z", "2026-11-16T00:00:00.000Z"],
    ["a Monday at 00:00", "2026-11-23T00:00:00.000Z", "2026-11-23T00:00:00.000Z"],
    ["a Monday evening", "2026-11-23T23:59:59.999Z", "2026-11-23T00:00:00.000Z"],
    ["a Wednesday", "2026-11-25T10:00:00.000Z", "2026-11-23T00:00:00.000Z"],
    ["a Sunday at 23:59", "2026-11-29T23:59:59.999Z", "2026-11-23T00:00:00.000Z"],
    ["New Year's Day (a Friday)", "2027-01-01T09:00:00.000Z", "2026-12-28T00:00:00.000Z"],
  ])("on %s the last bucket starts on the Monday of that week", (_name, now, lastMonday) => {
    const plan = planBuckets("1y", at(now));
    expect(plan.bucket).toBe("week");
    expect(plan.sizeMs).toBe(7 * DAY_MS);
    expect(plan.starts).toHaveLength(52);
    expect(plan.starts.at(-1)?.toISOString()).toBe(lastMonday);
    for (const start of plan.starts) {
      expect(start.getUTCDay()).toBe(1);
      expect(start.getTime() % DAY_MS).toBe(0);
    }
    for (let i = 1; i < 52; i++) expect((plan.starts[i] as Date).getTime() - (plan.starts[i - 1] as Date).getTime()).toBe(7 * DAY_MS);
  });
});

describe("bucketIndex", () => {
  const now = at("2026-11-22T15:30:00.000Z");
  it.each([
    ["7d", "2026-11-16T00:00:00.000Z", 0],
    ["7d", "2026-11-16T23:59:59.999Z", 0],
    ["7d", "2026-11-17T00:00:00.000Z", 1],
    ["7d", "2026-11-22T15:30:00.000Z", 6],
    ["7d", "2026-11-22T23:59:59.999Z", 6],
    ["7d", "2026-11-15T23:59:59.999Z", -1],
    ["7d", "2026-11-23T00:00:00.000Z", -1],
    ["1y", "2026-11-22T15:30:00.000Z", 51],
    ["1y", "2026-11-16T00:00:00.000Z", 51],
    ["1y", "2026-11-15T23:59:59.999Z", 50],
  ] as Array<[MetricRange, string, number]>)("%s: %s is in bucket %i", (range, time, index) => {
    expect(bucketIndex(planBuckets(range, now), at(time))).toBe(index);
  });
});
