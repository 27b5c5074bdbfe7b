// Per-key and per-organization request budgets. In-memory by default; Redis (REDIS_URL) shares them across instances.
import { Redis } from "ioredis";
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import { withIoTimeout } from "./with-io-timeout.ts";

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  resetSeconds: number;
  windowSeconds: number;
}

export interface RateLimiter {
  /** Consumes one request for the key and its organization. Throws RateLimitStoreError when the store fails. */
  consume(apiKeyId: string, organizationId: string): Promise<RateLimitDecision>;
  /** Resolves once the store is reachable (at once for memory); rejects after `timeoutMs`. */
  ready(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export class RateLimitStoreError extends Error {}

export interface RateLimitOptions {
  perKey: number;
  perOrganization: number;
  windowSeconds: number;
  redisUrl?: string;
  /** Namespace of the budget keys (default "cp:rl"): instances share a budget exactly when they share Redis and prefix. */
  keyPrefix?: string;
}

const REDIS_TIMEOUT_MS = 1_000;

export function createRateLimiter(options: RateLimitOptions): RateLimiter {
  let redis: Redis | undefined;
  const make = (points: number, keyPrefix: string): RateLimiterAbstract => {
    if (!options.redisUrl) return new RateLimiterMemory({ points, duration: options.windowSeconds, keyPrefix });
    redis ??= new Redis(options.redisUrl, {
      // Fail fast instead of queueing while Redis is down: the request then gets 503 RATE_LIMIT_UNAVAILABLE.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      connectTimeout: 2_000,
      // No commandTimeout: its plain timer misfires after a busy event loop; take() bounds each call instead.
    });
    redis.on("error", () => {});
    return new RateLimiterRedis({ storeClient: redis, points, duration: options.windowSeconds, keyPrefix });
  };
  const prefix = options.keyPrefix ?? "cp:rl";
  const perKey = make(options.perKey, `${prefix}:key`);
  const perOrg = make(options.perOrganization, `${prefix}:org`);

  function decision(allowed: boolean, limit: number, res: RateLimiterRes): RateLimitDecision {
    return {
      allowed,
      limit,
      remaining: Math.max(0, res.remainingPoints),
      resetSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
      windowSeconds: options.windowSeconds,
    };
  }

  async function take(limiter: RateLimiterAbstract, key: string, limit: number): Promise<RateLimitDecision> {
    try {
      const consumed = limiter.consume(key, 1);
      return decision(true, limit, redis ? await withIoTimeout(consumed, REDIS_TIMEOUT_MS, "Redis") : await consumed);
    } catch (rejection) {
      // rate-limiter-flexible rejects with a RateLimiterRes when the budget is spent, with an Error when the store fails.
      if (rejection instanceof RateLimiterRes) return decision(false, limit, rejection);
      throw new RateLimitStoreError("rate limit store unavailable", { cause: rejection });
    }
  }

  return {
    async consume(apiKeyId, organizationId) {
      const key = await take(perKey, apiKeyId, options.perKey);
      if (!key.allowed) return key;
      const org = await take(perOrg, organizationId, options.perOrganization);
      // Report the tighter of the two budgets.
      return !org.allowed || org.remaining < key.remaining ? org : key;
    },
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
      redis?.disconnect();
    },
  };
}
