import type { NextFunction, RequestHandler, Response } from "express";
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

/** Budgets API-key requests; 429 when spent, 503 RATE_LIMIT_UNAVAILABLE when the store fails (never fails open). With
 * the in-memory store the verdict is at hand and the step completes without a promise (it runs on every API-key
 * request); with Redis it waits for the store's answer. */
export function rateLimit(limiter: RateLimiter): RequestHandler {
  return function rateLimitMiddleware(req, res, next) {
    const auth = req.ctx.auth;
    if (!auth) return next();
    let verdict: RateLimitDecision | Promise<RateLimitDecision>;
    try {
      verdict = limiter.consume(auth.apiKeyId, auth.organizationId);
    } catch (error) {
      return next(refusalOf(error));
    }
    if (verdict instanceof Promise)
      return verdict.then(
        (d) => apply(d, res, next),
        (error: unknown) => next(refusalOf(error)),
      );
    apply(verdict, res, next);
  };
}

/** The budget's headers on every answer; 429 when it is spent. */
function apply(d: RateLimitDecision, res: Response, next: NextFunction): void {
  setRateLimitHeaders(res, d);
  if (d.allowed) next();
  else
    next(
      new ServiceError("RATE_LIMIT_EXCEEDED", "Rate limit exceeded; retry after the time in Retry-After", {
        retryAfterSeconds: d.resetSeconds,
      }),
    );
}

/** A store that failed refuses the request (503, never fails open); anything else is passed on as it is. */
export function refusalOf(error: unknown): unknown {
  if (!(error instanceof RateLimitStoreError)) return error;
  return new ServiceError("RATE_LIMIT_UNAVAILABLE", "The rate limiter is unavailable; the request was not executed", {
    retryAfterSeconds: 5,
    cause: error,
  });
}
