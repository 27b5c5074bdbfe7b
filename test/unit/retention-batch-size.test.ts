// The retention batch size rule (server/db/retention-batch-size.ts): halve on a cancelled batch down to the floor,
// stop when the floor is cancelled, grow back by a quarter after fast batches up to RETENTION_BATCH_SIZE.
import { describe, expect, it } from "vitest";
import { type BatchOutcome, nextBatchSize, RETENTION_BATCH_FLOOR } from "../../server/db/retention-batch-size.ts";

const limits = { maxSize: 1_000, maxMs: 100 };
const cancelled: BatchOutcome = { cancelled: true };
const took = (ms: number): BatchOutcome => ({ cancelled: false, ms });

describe("nextBatchSize", () => {
  it.each([
    { size: 1_000, outcome: cancelled, next: 500, why: "cancelled: half" },
    { size: 15, outcome: cancelled, next: 10, why: "cancelled: half, not below the floor" },
    { size: 11, outcome: cancelled, next: 10, why: "cancelled just above the floor: the floor" },
    { size: 10, outcome: cancelled, next: "stop", why: "cancelled at the floor: stop" },
    { size: 10, outcome: took(5), next: 13, why: "fast: a quarter more (rounded up)" },
    { size: 500, outcome: took(24.9), next: 625, why: "under a quarter of the bound is fast" },
    { size: 500, outcome: took(25), next: 500, why: "a quarter of the bound or more: kept" },
    { size: 500, outcome: took(99), next: 500, why: "slow but within the bound: kept" },
    { size: 900, outcome: took(1), next: 1_000, why: "never past RETENTION_BATCH_SIZE" },
    { size: 1_000, outcome: took(1), next: 1_000, why: "at RETENTION_BATCH_SIZE: stays" },
  ])("$why ($size → $next)", ({ size, outcome, next }) => {
    expect(nextBatchSize(size, outcome, limits)).toBe(next);
  });

  it("halving from 1,000 reaches the floor in 7 cancelled batches and stops at the 8th", () => {
    const sizes: number[] = [];
    let size: number | "stop" = 1_000;
    while (size !== "stop") {
      sizes.push(size);
      size = nextBatchSize(size, cancelled, limits);
    }
    expect(sizes).toEqual([1_000, 500, 250, 125, 62, 31, 15, RETENTION_BATCH_FLOOR]);
  });

  it("a RETENTION_BATCH_SIZE below the floor is its own floor", () => {
    expect(nextBatchSize(5, cancelled, { maxSize: 5, maxMs: 100 })).toBe("stop");
    expect(nextBatchSize(5, took(1), { maxSize: 5, maxMs: 100 })).toBe(5);
  });
});
