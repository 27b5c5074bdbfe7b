// retryWhile: the one retry loop of handlers and card writes (server/lib/retry-while.ts).
import { describe, expect, it } from "vitest";
import { retryWhile } from "../../server/lib/retry-while.ts";

class Again extends Error {}

describe("retryWhile", () => {
  it("starts over while the error is retryable, pauses between attempts, and tells the last attempt it is last", async () => {
    const seen: boolean[] = [];
    const pauses: number[] = [];
    const answer = await retryWhile(
      { attempts: 3, retryable: (e) => e instanceof Again, pause: async (retry) => void pauses.push(retry) },
      async (lastAttempt) => {
        seen.push(lastAttempt);
        if (!lastAttempt) throw new Again();
        return "answered";
      },
    );
    expect(answer).toBe("answered");
    expect(seen).toEqual([false, false, true]);
    expect(pauses).toEqual([0, 1]);
  });

  it("rethrows an error that is not retryable at once, and a retryable one after the last attempt", async () => {
    let calls = 0;
    await expect(
      retryWhile({ attempts: 5, retryable: (e) => e instanceof Again }, async () => {
        calls++;
        throw new TypeError("bug");
      }),
    ).rejects.toBeInstanceOf(TypeError);
    expect(calls).toBe(1);
    calls = 0;
    await expect(
      retryWhile({ attempts: 2, retryable: () => true }, async () => {
        calls++;
        throw new Again();
      }),
    ).rejects.toBeInstanceOf(Again);
    expect(calls).toBe(2);
  });
});
