// The retry schedule: the n-th entry after the n-th failure, ±20% jitter, final after the last entry.
import { describe, expect, it } from "vitest";
import { DEFAULT_WEBHOOK_RETRY_SCHEDULE_SECONDS } from "../../../server/config.ts";
import { maxAttempts, nextAttemptAt } from "../../../server/webhooks/retry-schedule.ts";

const failedAt = new Date("2026-01-01T00:00:00.000Z");
const schedule = [5, 60, 300];

describe("nextAttemptAt", () => {
  it.each([
    [1, 5_000],
    [2, 60_000],
    [3, 300_000],
  ])("after attempt %i the retry is due %i ms later without jitter", (attempt, delayMs) => {
    expect(nextAttemptAt(attempt, failedAt, schedule, () => 0.5)?.getTime()).toBe(failedAt.getTime() + delayMs);
  });

  it("jitters by at most 20% either way", () => {
    expect(nextAttemptAt(2, failedAt, schedule, () => 0)?.getTime()).toBe(failedAt.getTime() + 48_000);
    expect(nextAttemptAt(2, failedAt, schedule, () => 0.999999)?.getTime()).toBe(failedAt.getTime() + 72_000);
    for (let i = 0; i < 200; i++) {
      const delay = (nextAttemptAt(1, failedAt, schedule)?.getTime() ?? 0) - failedAt.getTime();
      expect(delay).toBeGreaterThanOrEqual(4_000);
      expect(delay).toBeLessThanOrEqual(6_000);
    }
  });

  it("ends after the last entry", () => {
    expect(nextAttemptAt(4, failedAt, schedule)).toBeNull();
    expect(nextAttemptAt(1, failedAt, [])).toBeNull();
    expect(maxAttempts(schedule)).toBe(4);
  });

  it("takes fractions of a second (the tests' short schedules)", () => {
    expect(nextAttemptAt(1, failedAt, [0.05], () => 0.5)?.getTime()).toBe(failedAt.getTime() + 50);
  });

  it("spans about three days by default, in ten attempts", () => {
    const totalSeconds = DEFAULT_WEBHOOK_RETRY_SCHEDULE_SECONDS.reduce((a, b) => a + b, 0);
    // 68.6 h ≈ 2.9 days without jitter, as server/config.ts and docs/webhooks.md say.
    expect(totalSeconds).toBe(246_965);
    expect(totalSeconds / 3600).toBeCloseTo(68.6, 1);
    expect(maxAttempts(DEFAULT_WEBHOOK_RETRY_SCHEDULE_SECONDS)).toBe(10);
  });
});
