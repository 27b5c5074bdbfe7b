// Sign-in throttling: each sign-in attempt, and each second-factor code, spends one unit of the account's and of the
// client address's sign-in budgets (server/rate-limit/rate-limiter.ts), right or wrong, before anything is checked.
// Past either → 429 with Retry-After and the budget's headers, whatever the password; a store failure → 503.
import type { NextFunction, Request, RequestHandler, Response } from "express";
import { ServiceError } from "../errors/service-error.ts";
import { clientAddress } from "../rate-limit/client-address.ts";
import type { RateLimitDecision, SignInLimiter } from "../rate-limit/rate-limiter.ts";
import { refusalOf, setRateLimitHeaders } from "./rate-limit.ts";

const THROTTLED = new Set(["createSession", "verifySessionSecondFactor", "confirmTotpEnrollment"]);

export function signInThrottle(limiter: SignInLimiter | undefined): RequestHandler {
  // Every request passes through here; only the throttled operations go on to the (asynchronous) budget, so the others
  // cost no promise (server/http/pipeline.ts waits on a step only when it returns one).
  return function signInThrottleMiddleware(req, res, next) {
    const operationId = req.ctx.operation?.operationId;
    if (!limiter || !operationId || !THROTTLED.has(operationId)) return next();
    return spendSignInBudget(limiter, operationId, req, res, next);
  };
}

async function spendSignInBudget(limiter: SignInLimiter, operationId: string, req: Request, res: Response, next: NextFunction) {
  const body: unknown = req.body;
  const account =
    operationId === "createSession"
      ? String((body as { email?: unknown }).email ?? "")
          .trim()
          .toLowerCase()
      : (req.ctx.auth?.session?.email ?? "");
  let d: RateLimitDecision;
  try {
    d = await limiter.attempt(account, clientAddress(req));
  } catch (error) {
    return next(refusalOf(error));
  }
  setRateLimitHeaders(res, d);
  if (d.allowed) return next();
  next(
    new ServiceError("RATE_LIMIT_EXCEEDED", "Too many sign-in attempts; retry after the time in Retry-After", {
      retryAfterSeconds: d.resetSeconds,
    }),
  );
}
