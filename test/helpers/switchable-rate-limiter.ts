// A rate limiter whose behaviour a test switches: allow, spent (429), or store down (503).
import { type RateLimiter, RateLimitStoreError } from "../../server/rate-limit/rate-limiter.ts";

export interface SwitchableRateLimiter extends RateLimiter {
  mode: "allow" | "exceeded" | "down";
}

export function switchableRateLimiter(): SwitchableRateLimiter {
  const limiter: SwitchableRateLimiter = {
    mode: "allow",
    async consume() {
      if (limiter.mode === "down") throw new RateLimitStoreError("simulated rate limit store outage");
      const allowed = limiter.mode === "allow";
      return { allowed, limit: 1000, remaining: allowed ? 999 : 0, resetSeconds: 30, windowSeconds: 60 };
    },
    async ready() {},
    async close() {},
  };
  return limiter;
}
