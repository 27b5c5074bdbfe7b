// Per-key and per-organization request budgets, and per-address budgets of authentication failures. Sliding windows
// (server/rate-limit/sliding-window.ts): at most the limit in any interval of the window's length. In-memory by
// default; Redis (REDIS_URL) shares them across instances.
import { Redis } from "ioredis";
import { withIoTimeout } from "../lib/with-io-timeout.ts";
import {
  type Budget,
  type BudgetState,
  type HitResult,
  memorySlidingWindow,
  redisSlidingWindow,
  type SlidingWindowStore,
} from "./sliding-window.ts";

/** One hit on a request's budgets: whether it was let through, each budget's state after it, and when. */
interface HitOutcome {
  allowed: boolean;
  states: BudgetState[];
  at: number;
}

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  resetSeconds: number;
  windowSeconds: number;
  /** Name of the policy in `RateLimit` / `RateLimit-Policy` (default "default"). */
  policy?: string;
}

/** Failed authentications per client address: a budget of their own, spent only by failures. */
export interface AuthFailureLimiter {
  /** Counts one failed authentication from `address`; `allowed: false` once the address's budget is spent (then the
   * failure is not counted). Throws RateLimitStoreError when the store fails. */
  fail(address: string): Promise<RateLimitDecision>;
}

/** Sign-in attempts (and second-factor codes) per account and per client address: each attempt spends one unit of both
 * budgets, right or wrong, so guessing is throttled whatever the outcome; past either → `allowed: false`. */
export interface SignInLimiter {
  attempt(account: string, address: string): Promise<RateLimitDecision>;
}

export interface RateLimiter {
  /** Consumes one request for the key and its organization (both or neither). Throws RateLimitStoreError when the
   * store fails. */
  consume(apiKeyId: string, organizationId: string): RateLimitDecision | Promise<RateLimitDecision>;
  /** Present when the limiter was created with `authFailures`; absent → authentication failures are not limited. */
  authFailures?: AuthFailureLimiter;
  /** Present when the limiter was created with `signIn`. */
  signIn?: SignInLimiter;
  /** Resolves once the store is reachable (at once for memory); rejects after `timeoutMs`. */
  ready(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export class RateLimitStoreError extends Error {}

const storeUnavailable = (cause: unknown) => new RateLimitStoreError("rate limit store unavailable", { cause });

export interface RateLimitOptions {
  perKey: number;
  perOrganization: number;
  windowSeconds: number;
  /** Failed authentications allowed per client address per window; unset → not limited. */
  authFailures?: number;
  /** Sign-in attempts per account and per address, in a window of their own; unset → not limited. */
  signIn?: { perAccount: number; perAddress: number; windowSeconds: number };
  redisUrl?: string;
  /** Namespace of the budget keys (default "cp:rl"): instances share a budget exactly when they share Redis and prefix. */
  keyPrefix?: string;
  /** Clock in ms since the epoch (tests drive time with it); default Date.now. */
  now?: () => number;
}

const REDIS_TIMEOUT_MS = 1_000;
export const AUTH_FAILURE_POLICY = "auth-failures";

export function createRateLimiter(options: RateLimitOptions): RateLimiter {
  const now = options.now ?? Date.now;
  const windowMs = options.windowSeconds * 1000;
  // ":sw" (sorted sets) keeps these apart from the fixed-window counters (strings) of earlier versions under the same
  // prefix, which a rolling deploy may still find in Redis.
  const prefix = `${options.keyPrefix ?? "cp:rl"}:sw`;
  let redis: Redis | undefined;
  let store: SlidingWindowStore;
  if (options.redisUrl) {
    redis = new Redis(options.redisUrl, {
      // Fail fast instead of queueing while Redis is down: the request then gets 503 RATE_LIMIT_UNAVAILABLE.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      connectTimeout: 2_000,
      // No commandTimeout: its plain timer misfires after a busy event loop; hit() bounds each call instead.
    });
    redis.on("error", () => {});
    store = redisSlidingWindow(redis);
  } else {
    store = memorySlidingWindow();
  }

  function decision(allowed: boolean, limit: number, state: BudgetState, at: number, policy?: string): RateLimitDecision {
    return {
      allowed,
      limit,
      remaining: Math.max(0, limit - state.count),
      resetSeconds: Math.max(1, Math.ceil((state.freesAtMs - at) / 1000)),
      windowSeconds: options.windowSeconds,
      ...(policy ? { policy } : {}),
    };
  }

  // In memory the answer is at hand, so it is returned as it is: a request's budget check then costs no promise (the
  // rate-limit step runs on every API-key request). From Redis it comes bounded by REDIS_TIMEOUT_MS.
  function hit(budgets: Budget[], window = windowMs): HitOutcome | Promise<HitOutcome> {
    const at = now();
    let answer: HitResult | Promise<HitResult>;
    try {
      answer = store.hit(budgets, window, at);
    } catch (error) {
      throw storeUnavailable(error);
    }
    if (!(answer instanceof Promise)) return { allowed: answer.allowed, states: answer.budgets, at };
    return withIoTimeout(answer, REDIS_TIMEOUT_MS, "Redis").then(
      (result) => ({ allowed: result.allowed, states: result.budgets, at }),
      (error: unknown) => {
        throw storeUnavailable(error);
      },
    );
  }

  const authFailureLimit = options.authFailures;
  const authFailures: AuthFailureLimiter | undefined =
    authFailureLimit === undefined
      ? undefined
      : {
          async fail(address) {
            const { allowed, states, at } = await hit([{ key: `${prefix}:auth:${address}`, limit: authFailureLimit }]);
            return decision(allowed, authFailureLimit, states[0] as BudgetState, at, AUTH_FAILURE_POLICY);
          },
        };

  const signInOptions = options.signIn;
  const signIn: SignInLimiter | undefined = signInOptions && {
    async attempt(account, address) {
      const { perAccount, perAddress, windowSeconds } = signInOptions;
      const { allowed, states, at } = await hit(
        [
          { key: `${prefix}:signin:account:${account}`, limit: perAccount },
          { key: `${prefix}:signin:address:${address}`, limit: perAddress },
        ],
        windowSeconds * 1000,
      );
      const make = (limit: number, state: BudgetState) => ({
        ...decision(allowed, limit, state, at, "sign-in"),
        windowSeconds,
      });
      const byAccount = make(perAccount, states[0] as BudgetState);
      const byAddress = make(perAddress, states[1] as BudgetState);
      if (!allowed)
        return [byAccount, byAddress].filter((d) => d.remaining === 0).sort((a, b) => b.resetSeconds - a.resetSeconds)[0] ?? byAccount;
      return byAddress.remaining < byAccount.remaining ? byAddress : byAccount;
    },
  };

  /** The verdict of a request's two budgets: the refusing one when refused, else the tighter one. */
  function keyAndOrganizationVerdict({ allowed, states, at }: HitOutcome): RateLimitDecision {
    const key = decision(allowed, options.perKey, states[0] as BudgetState, at);
    const org = decision(allowed, options.perOrganization, states[1] as BudgetState, at);
    if (!allowed) {
      // Report the budget that refused; when both did, the one that has room again last.
      const refusing = [key, org].filter((d) => d.remaining === 0);
      return refusing.reduce((a, b) => (b.resetSeconds > a.resetSeconds ? b : a), refusing[0] ?? key);
    }
    // Report the tighter of the two budgets.
    return org.remaining < key.remaining ? org : key;
  }

  return {
    ...(signIn ? { signIn } : {}),
    consume(apiKeyId, organizationId) {
      const outcome = hit([
        { key: `${prefix}:key:${apiKeyId}`, limit: options.perKey },
        { key: `${prefix}:org:${organizationId}`, limit: options.perOrganization },
      ]);
      return outcome instanceof Promise ? outcome.then(keyAndOrganizationVerdict) : keyAndOrganizationVerdict(outcome);
    },
    ...(authFailures ? { authFailures } : {}),
    async ready(timeoutMs = 5_000) {
      const client = redis;
      if (!client || client.status === "ready") return;
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new RateLimitStoreError(`Redis not ready after ${timeoutMs} ms`)), timeoutMs);
        client.once("ready", () => {
          clearTimeout(timer);
          resolve();
        });
      });
    },
    async close() {
      store.close();
      redis?.disconnect();
    },
  };
}
