// Random tokens drawn from the 4 KiB pool (server/lib/ids.ts): the format of randomBytes(n).toString("hex") and
// randomBytes(n), every byte used once (no two draws overlap, also across a refill), and a draw larger than the pool
// refused rather than repeated.
import { describe, expect, it } from "vitest";
import { randomBase62, randomBuffer, randomHex } from "../../server/lib/ids.ts";

describe("random draws from the pool", () => {
  it("randomHex(n) is 2n lowercase hex characters; randomBuffer(n) n bytes of its own", () => {
    expect(randomHex(16)).toMatch(/^[0-9a-f]{32}$/);
    expect(randomHex(32)).toMatch(/^[0-9a-f]{64}$/);
    const buffer = randomBuffer(64);
    expect(buffer).toHaveLength(64);
    // Its own memory: the pool's next refill does not change it.
    const copy = Buffer.from(buffer);
    for (let i = 0; i < 200; i++) randomHex(32);
    expect(buffer.equals(copy)).toBe(true);
  });

  it("no draw repeats another, across many refills of the pool and mixed with ids", () => {
    const seen = new Set<string>();
    // 20,000 × 16 bytes is 78 refills; odd sizes make draws straddle the refill point.
    for (let i = 0; i < 20_000; i++) {
      seen.add(randomHex(16));
      randomHex(i % 7);
      randomBase62(3);
    }
    expect(seen.size).toBe(20_000);
  });

  it("the bytes are spread over every value (not a constant or a counter)", () => {
    const counts = new Array<number>(256).fill(0);
    for (let i = 0; i < 400; i++) for (const byte of randomBuffer(64)) counts[byte] = (counts[byte] as number) + 1;
    // 25,600 bytes: 100 per value expected; a fixed or sequential source would leave most values at 0 or far off.
    expect(Math.min(...counts)).toBeGreaterThan(40);
    expect(Math.max(...counts)).toBeLessThan(180);
  });

  it("a draw larger than the pool is refused", () => {
    expect(() => randomHex(4097)).toThrow(RangeError);
  });
});
