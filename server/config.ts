// Configuration from the environment. Every variable is documented in README.md ("Configuration").

export interface Config {
  port: number;
  host: string;
  nodeEnv: string;
  databaseUrl: string | undefined;
  databasePoolSize: number;
  redisUrl: string | undefined;
  adminToken: string | undefined;
  schedulerSecret: string | undefined;
  schedulerIntervalMs: number;
  bodyLimitBytes: number;
  idempotencyTtlHours: number;
  /** How long an in-progress idempotency record blocks retries before a retry may take over (crashed request). */
  idempotencyLockSeconds: number;
  /** keyPrefix namespaces the Redis keys, so deployments (or test runs) sharing one Redis keep separate budgets. */
  rateLimit: { perKey: number; perOrganization: number; windowSeconds: number; keyPrefix: string };
  logLevel: string;
  /** Validate responses against the spec and throw on mismatch (tests). */
  validateResponses: boolean;
  shutdownTimeoutMs: number;
}

function int(env: NodeJS.ProcessEnv, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be an integer ≥ ${min}, got "${raw}"`);
  return value;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return {
    port: int(env, "PORT", 8080),
    host: env.HOST || "0.0.0.0",
    nodeEnv: env.NODE_ENV || "development",
    databaseUrl: env.DATABASE_URL || undefined,
    databasePoolSize: int(env, "DATABASE_POOL_SIZE", 10, 1),
    redisUrl: env.REDIS_URL || undefined,
    adminToken: env.ADMIN_TOKEN || undefined,
    schedulerSecret: env.SCHEDULER_SECRET || undefined,
    schedulerIntervalMs: int(env, "SCHEDULER_INTERVAL_MS", 5_000, 0),
    bodyLimitBytes: int(env, "BODY_LIMIT_BYTES", 100 * 1024, 1024),
    idempotencyTtlHours: int(env, "IDEMPOTENCY_TTL_HOURS", 24, 1),
    idempotencyLockSeconds: int(env, "IDEMPOTENCY_LOCK_SECONDS", 60, 1),
    rateLimit: {
      perKey: int(env, "RATE_LIMIT_PER_KEY", 600, 1),
      perOrganization: int(env, "RATE_LIMIT_PER_ORG", 3000, 1),
      windowSeconds: int(env, "RATE_LIMIT_WINDOW_SECONDS", 60, 1),
      keyPrefix: env.RATE_LIMIT_KEY_PREFIX || "cp:rl",
    },
    logLevel: env.LOG_LEVEL || "info",
    validateResponses: env.VALIDATE_RESPONSES === "true",
    shutdownTimeoutMs: int(env, "SHUTDOWN_TIMEOUT_MS", 10_000, 0),
  };
}
