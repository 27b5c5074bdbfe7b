// The webhook settings refuse combinations that would break delivery guarantees, at start (one line, exit 1).
import { describe, expect, it } from "vitest";
import { DEFAULT_WEBHOOK_RETRY_SCHEDULE_SECONDS, loadConfig } from "../../server/config.ts";

describe("webhook configuration", () => {
  it("defaults: 10 s attempts, a 30 s lease, the ≈3-day schedule", () => {
    const { webhooks } = loadConfig({});
    expect(webhooks).toMatchObject({
      attemptTimeoutMs: 10_000,
      leaseSeconds: 30,
      retryScheduleSeconds: DEFAULT_WEBHOOK_RETRY_SCHEDULE_SECONDS,
    });
  });

  it("refuses a lease that could end while its attempt still runs (another worker would send it again)", () => {
    expect(() => loadConfig({ WEBHOOK_LEASE_SECONDS: "10" })).toThrow(
      /WEBHOOK_LEASE_SECONDS \(10\) must be longer than WEBHOOK_ATTEMPT_TIMEOUT_MS/,
    );
    expect(() => loadConfig({ WEBHOOK_LEASE_SECONDS: "2", WEBHOOK_ATTEMPT_TIMEOUT_MS: "1999" })).not.toThrow();
  });

  it("refuses a retry schedule that is not a list of non-negative seconds", () => {
    expect(loadConfig({ WEBHOOK_RETRY_SCHEDULE_SECONDS: "0.05, 1,2" }).webhooks.retryScheduleSeconds).toEqual([0.05, 1, 2]);
    expect(() => loadConfig({ WEBHOOK_RETRY_SCHEDULE_SECONDS: "5,-1" })).toThrow(/comma-separated list of seconds/);
    expect(() => loadConfig({ WEBHOOK_RETRY_SCHEDULE_SECONDS: "5,soon" })).toThrow(/comma-separated list of seconds/);
  });
});
