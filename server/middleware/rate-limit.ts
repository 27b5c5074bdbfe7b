import type { RequestHandler, Response } from "express";
import { ServiceError } from "../errors/service-error.ts";
import { type RateLimitDecision, type RateLimiter, RateLimitStoreError } from "../rate-limit/rate-limiter.ts";

export function setRateLimitHeaders(res: Response, d: RateLimitDecision): void {
  const policy = d.policy ?? "default";
  res.setHeader("X-RateLimit-Limit", String(d.limit));
  res.setHeader("X-RateLimit-Remaining", String(d.remaining));
  res.setHeader("X-RateLimit-Reset", String(d.resetSeconds));
  res.setHeader("RateLimit", `"${policy}";r=${d.remaining};t=${d.resetSeconds}`);
  res.setHeader("RateLimit-Policy", `"${policy}";q=${d.limit};w=${d.windowSeconds}`);
}

/** Budgets API-key requests; 429 when spent, 503 RATE_LIMIT_UNAVAILABLE when the store fails (never fails open). */
export function rateLimit(limiter: RateLimiter): RequestHandler {
  return async function rateLimitMiddleware(req, res, next) {
    const auth = req.ctx.auth;
    if (!auth) return next();
    try {
      const d = await limiter.consume(auth.apiKeyId, auth.organizationId);
      setRateLimitHeaders(res, d);
      if (!d.allowed) {
        return next(
          new ServiceError("RATE_LIMIT_EXCEEDED", "Rate limit exceeded; retry after the time in Retry-After", {
            retryAfterSeconds: d.resetSeconds,
          }),
        );
      }
      next();
    } catch (error) {
      if (error instanceof RateLimitStoreError) {
        return next(
          new ServiceError("RATE_LIMIT_UNAVAILABLE", "The rate limiter is unavailable; the request was not executed", {
            retryAfterSeconds: 5,
            cause: error,
          }),
        );
      }
      next(error);
    }
  };
}
