// Configuration from the environment. Every variable is documented in README.md ("Configuration"). This is the only
// module under server/ that reads process.env (test/unit/process-env-only-in-config.test.ts): everything else receives
// its settings, so a test can build any configuration without touching the process.

export interface Config {
  port: number;
  host: string;
  nodeEnv: string;
  databaseUrl: string | undefined;
  databasePoolSize: number;
  /** Bounded time on every PostgreSQL connection (README "Operations"). */
  database: {
    /** Waiting for a pooled connection (or opening one) before the request fails with 503. */
    connectTimeoutMs: number;
    /** Server-side `statement_timeout` of every connection. */
    statementTimeoutMs: number;
    /** Server-side `idle_in_transaction_session_timeout`: a session idle inside a transaction is ended (its locks go). */
    idleInTransactionTimeoutMs: number;
    /** Client-side `query_timeout`: a statement without an answer (a partition) fails and its connection is dropped. */
    queryTimeoutMs: number;
  };
  /** Longest a request may take before it answers 503 SERVICE_UNAVAILABLE (nothing is stored for it). */
  requestTimeoutMs: number;
  /** `/readyz` gives the database this long to answer before it reports 503. */
  readinessTimeoutMs: number;
  redisUrl: string | undefined;
  adminToken: string | undefined;
  schedulerSecret: string | undefined;
  schedulerIntervalMs: number;
  bodyLimitBytes: number;
  idempotencyTtlHours: number;
  /** How long an in-progress idempotency record blocks retries before a retry may take over (crashed request). */
  idempotencyLockSeconds: number;
  /** keyPrefix namespaces the Redis keys, so deployments (or test runs) sharing one Redis keep separate budgets. */
  rateLimit: {
    perKey: number;
    perOrganization: number;
    windowSeconds: number;
    keyPrefix: string;
    /** Failed authentications (401) allowed per client address per window; past it → 429. */
    authFailures: number;
  };
  /** Express `trust proxy`: unset → false (the client address is the socket peer; X-Forwarded-For is ignored). */
  trustProxy: boolean | number | string;
  logLevel: string;
  /** Validate responses against the spec and throw on mismatch (tests). */
  validateResponses: boolean;
  shutdownTimeoutMs: number;
  /** solc runs in a pool of worker threads, off the event loop (server/domain/contracts/compile-solidity.ts). */
  compile: {
    /** Compiler worker threads per process. */
    workers: number;
    /** A compile's deadline from submission (queue wait included); then its worker is terminated and replaced. */
    timeoutMs: number;
    /** A compiler worker's V8 heap cap (`resourceLimits.maxOldGenerationSizeMb`), and the Wasm memory above which it is retired. */
    workerMemoryMb: number;
  };
  faultInjection: FaultInjection;
  /** Signed webhooks (docs/webhooks.md). */
  webhooks: WebhookConfig;
}

export interface WebhookConfig {
  /** WEBHOOK_SECRETS_KEY: 32 bytes, base64, sealing endpoint signing secrets (AES-256-GCM). Required when
   * NODE_ENV=production; otherwise generated once into the data folder (like the admin token). */
  secretsKey: string | undefined;
  /** How often this process's delivery worker looks for due deliveries; 0 runs no worker in this process. */
  pollIntervalMs: number;
  /** One attempt's deadline (connect, send, and the receiver's answer). */
  attemptTimeoutMs: number;
  /** Delay before each retry, in seconds, after the first attempt failed (≈3 days in total by default). */
  retryScheduleSeconds: number[];
  /** Deliveries one worker claims per poll (and sends concurrently). */
  batchSize: number;
  /** How long a claimed delivery stays with its worker; a worker that died loses it after this. */
  leaseSeconds: number;
  /** WEBHOOK_SANDBOX_PRIVATE_TARGETS: sandbox endpoints may target loopback and private addresses (local development).
   * Default: true, except when NODE_ENV=production (a hosted deployment's sandbox must not reach its own network). */
  sandboxPrivateTargets: boolean;
  /** EVENT_RETENTION_DAYS: events and finished deliveries older than this are purged (a pending delivery keeps its event). */
  retentionDays: number;
}

/** After the first attempt: 5 s, 1 min, 5 min, 30 min, 2 h, 6 h, 12 h, 24 h, 24 h → 10 attempts over ≈68.6 h, ≈2.9 days (±20% jitter). */
export const DEFAULT_WEBHOOK_RETRY_SCHEDULE_SECONDS = [5, 60, 300, 1800, 7200, 21600, 43200, 86400, 86400];

function secondsList(env: NodeJS.ProcessEnv, name: string, fallback: number[]): number[] {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const values = raw.split(",").map((part) => Number(part.trim()));
  if (values.some((value) => !Number.isFinite(value) || value < 0)) {
    throw new Error(`${name} must be a comma-separated list of seconds ≥ 0, got "${raw}"`);
  }
  return values;
}

/** Test-only fault injection for the system tests (server/http/fault-injection.ts, test/system/crash-and-drain.test.ts).
 * FAULT_INJECT=`crash-after-commit:<operationId>` SIGKILLs the process right after that operation's business transaction
 * commits and before its response is written. Never honoured when NODE_ENV=production. */
export interface FaultInjection {
  crashAfterCommit: string | undefined;
  /** FAULT_INJECT is set but NODE_ENV=production: the server warns at start that it is ignored. */
  ignoredInProduction: boolean;
}

export function parseFaultInjection(env: NodeJS.ProcessEnv): FaultInjection {
  const raw = env.FAULT_INJECT;
  if (!raw) return { crashAfterCommit: undefined, ignoredInProduction: false };
  if (env.NODE_ENV === "production") return { crashAfterCommit: undefined, ignoredInProduction: true };
  const match = /^crash-after-commit:([A-Za-z0-9_]+)$/.exec(raw);
  if (!match) throw new Error(`FAULT_INJECT must be crash-after-commit:<operationId>, got "${raw}"`);
  return { crashAfterCommit: match[1], ignoredInProduction: false };
}

function int(env: NodeJS.ProcessEnv, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be an integer ≥ ${min}, got "${raw}"`);
  return value;
}

function bool(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  if (raw === "true") return true;
  if (raw === "false") return false;
  throw new Error(`${name} must be true or false, got "${raw}"`);
}

/** TRUST_PROXY in Express's terms: `false`/unset, `true` (any hop — only behind a proxy that strips the header), a hop
 * count, or a comma-separated list of addresses / subnets / `loopback`, `linklocal`, `uniquelocal`. */
function trustProxy(raw: string | undefined): boolean | number | string {
  if (raw === undefined || raw === "" || raw === "false") return false;
  if (raw === "true") return true;
  if (/^\d+$/.test(raw)) return Number(raw);
  return raw;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const config = readConfig(env);
  const { leaseSeconds, attemptTimeoutMs } = config.webhooks;
  // A lease that ends while its attempt may still run lets another worker send the same attempt again.
  if (leaseSeconds * 1000 <= attemptTimeoutMs) {
    throw new Error(`WEBHOOK_LEASE_SECONDS (${leaseSeconds}) must be longer than WEBHOOK_ATTEMPT_TIMEOUT_MS (${attemptTimeoutMs} ms)`);
  }
  return config;
}

function readConfig(env: NodeJS.ProcessEnv): Config {
  return {
    port: int(env, "PORT", 8080),
    host: env.HOST || "0.0.0.0",
    nodeEnv: env.NODE_ENV || "development",
    databaseUrl: env.DATABASE_URL || undefined,
    databasePoolSize: int(env, "DATABASE_POOL_SIZE", 10, 1),
    database: {
      connectTimeoutMs: int(env, "DATABASE_CONNECT_TIMEOUT_MS", 5_000, 1),
      statementTimeoutMs: int(env, "DATABASE_STATEMENT_TIMEOUT_MS", 10_000, 1),
      idleInTransactionTimeoutMs: int(env, "DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS", 10_000, 1),
      queryTimeoutMs: int(env, "DATABASE_QUERY_TIMEOUT_MS", 12_000, 1),
    },
    requestTimeoutMs: int(env, "REQUEST_TIMEOUT_MS", 30_000, 1_000),
    readinessTimeoutMs: int(env, "READINESS_TIMEOUT_MS", 2_000, 1),
    redisUrl: env.REDIS_URL || undefined,
    adminToken: env.ADMIN_TOKEN || undefined,
    schedulerSecret: env.SCHEDULER_SECRET || undefined,
    schedulerIntervalMs: int(env, "SCHEDULER_INTERVAL_MS", 5_000, 0),
    bodyLimitBytes: int(env, "BODY_LIMIT_BYTES", 100 * 1024, 1024),
    idempotencyTtlHours: int(env, "IDEMPOTENCY_TTL_HOURS", 24, 1),
    idempotencyLockSeconds: int(env, "IDEMPOTENCY_LOCK_SECONDS", 20, 1),
    rateLimit: {
      perKey: int(env, "RATE_LIMIT_PER_KEY", 600, 1),
      perOrganization: int(env, "RATE_LIMIT_PER_ORG", 3000, 1),
      windowSeconds: int(env, "RATE_LIMIT_WINDOW_SECONDS", 60, 1),
      keyPrefix: env.RATE_LIMIT_KEY_PREFIX || "cp:rl",
      authFailures: int(env, "RATE_LIMIT_AUTH_FAILURES", 30, 1),
    },
    trustProxy: trustProxy(env.TRUST_PROXY),
    logLevel: env.LOG_LEVEL || "info",
    validateResponses: env.VALIDATE_RESPONSES === "true",
    shutdownTimeoutMs: int(env, "SHUTDOWN_TIMEOUT_MS", 10_000, 0),
    compile: {
      workers: int(env, "COMPILE_WORKERS", 1, 1),
      timeoutMs: int(env, "COMPILE_TIMEOUT_MS", 15_000, 1),
      workerMemoryMb: int(env, "COMPILE_WORKER_MEMORY_MB", 512, 16),
    },
    faultInjection: parseFaultInjection(env),
    webhooks: {
      secretsKey: env.WEBHOOK_SECRETS_KEY || undefined,
      pollIntervalMs: int(env, "WEBHOOK_POLL_INTERVAL_MS", 250, 0),
      attemptTimeoutMs: int(env, "WEBHOOK_ATTEMPT_TIMEOUT_MS", 10_000, 1),
      retryScheduleSeconds: secondsList(env, "WEBHOOK_RETRY_SCHEDULE_SECONDS", DEFAULT_WEBHOOK_RETRY_SCHEDULE_SECONDS),
      batchSize: int(env, "WEBHOOK_BATCH_SIZE", 20, 1),
      leaseSeconds: int(env, "WEBHOOK_LEASE_SECONDS", 30, 1),
      sandboxPrivateTargets: bool(env, "WEBHOOK_SANDBOX_PRIVATE_TARGETS", env.NODE_ENV !== "production"),
      retentionDays: int(env, "EVENT_RETENTION_DAYS", 30, 1),
    },
  };
}
