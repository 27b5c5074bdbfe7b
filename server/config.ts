// Configuration from the environment. Every variable is documented in README.md ("Configuration"). This is the only
// module under server/ that reads process.env (test/unit/process-env-only-in-config.test.ts): everything else receives
// its settings, so a test can build any configuration without touching the process.

export interface PoolerConfig {
  /** DATABASE_POOLER: `none` (default: DATABASE_URL is a direct session) or `transaction` (DATABASE_URL is a
   * transaction-mode pooler: no LISTEN, no session state, no named prepared statements unless it keeps them). */
  mode: "none" | "transaction";
  /** DATABASE_DIRECT_URL: a session connection past the pooler, for the change feed's LISTEN and the migrations. */
  directUrl: string | undefined;
  /** DATABASE_PREPARED_STATEMENTS: name and reuse prepared statements per connection (default: on without a pooler,
   * off behind one — PgBouncer before 1.21 keeps none in transaction mode). */
  preparedStatements: boolean;
}

export interface Config {
  port: number;
  host: string;
  nodeEnv: string;
  databaseUrl: string | undefined;
  databasePoolSize: number;
  /** Behind a transaction-mode pooler (PgBouncer, RDS Proxy, …): DATABASE_POOLER, DATABASE_DIRECT_URL and
   * DATABASE_PREPARED_STATEMENTS (README "Operations", "Behind a connection pooler"). */
  pooler: PoolerConfig;
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
  /** ADMIN_TOKEN_PREVIOUS: still accepted while ADMIN_TOKEN is rotated (README "Operations"). */
  previousAdminToken: string | undefined;
  schedulerSecret: string | undefined;
  /** SCHEDULER_SECRET_PREVIOUS: still accepted while SCHEDULER_SECRET is rotated. */
  previousSchedulerSecret: string | undefined;
  /** Bearer token of GET /metrics (METRICS_TOKEN); required when NODE_ENV=production, open when unset otherwise. */
  metricsToken: string | undefined;
  /** OpenTelemetry traces (server/observability/tracing.ts): exported over OTLP/HTTP when an endpoint is set, off otherwise. */
  tracing: TracingConfig;
  /** MIGRATE_ON_START: apply pending migrations at start (default); false → refuse to start while any is pending. */
  migrateOnStart: boolean;
  schedulerIntervalMs: number;
  bodyLimitBytes: number;
  idempotencyTtlHours: number;
  /** Retention purges (idempotency records, events, finished deliveries, spends) delete in batches of RETENTION_BATCH_SIZE
   * rows with RETENTION_BATCH_PAUSE_MS between them, each batch a transaction bounded by RETENTION_BATCH_MAX_MS
   * (statement_timeout and lock_timeout; a cancelled batch is retried smaller; server/db/purge-in-batches.ts). */
  retention: { batchSize: number; pauseMs: number; maxBatchMs: number };
  /** How long an in-progress idempotency record blocks retries before a retry may take over (crashed request). */
  idempotencyLockSeconds: number;
  /** RECONCILE_AFTER_SECONDS: a provider write not finished by its request this long after its intent is settled by the
   * reconciler (server/domain/reconcile/); also its backoff's unit. */
  reconcileAfterSeconds: number;
  /** keyPrefix namespaces the Redis keys, so deployments (or test runs) sharing one Redis keep separate budgets. */
  rateLimit: {
    perKey: number;
    perOrganization: number;
    windowSeconds: number;
    keyPrefix: string;
    /** Failed authentications (401) allowed per client address per window; past it → 429. */
    authFailures: number;
    /** Sign-in attempts (and second-factor codes) per account and per client address in a window of their own; past
     * either → 429 (SIGN_IN_ATTEMPTS_PER_ACCOUNT, SIGN_IN_ATTEMPTS_PER_ADDRESS, SIGN_IN_WINDOW_SECONDS). */
    signIn: { perAccount: number; perAddress: number; windowSeconds: number };
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
  /** Members and their sessions (docs/members.md). */
  people: PeopleConfig;
}

export interface PeopleConfig {
  /** SESSION_IDLE_MINUTES: a session unused this long ends. */
  sessionIdleMinutes: number;
  /** SESSION_ABSOLUTE_HOURS: a session ends this long after sign-in, used or not. */
  sessionAbsoluteHours: number;
  /** INVITATION_TTL_HOURS: an invitation link works this long, once. */
  invitationTtlHours: number;
  /** scrypt cost parameters of password hashes (PASSWORD_SCRYPT_N, _R, _P); stored with each hash, so raising them
   * applies to new passwords while old hashes still verify. */
  scrypt: { N: number; r: number; p: number };
  /** PUBLIC_URL: the origin invitation links point to, and the one origin session requests may come from besides the
   * request's own host (the CSRF check). Unset → the request's own origin. */
  publicUrl: string | undefined;
}

export interface TracingConfig {
  /** OTEL_EXPORTER_OTLP_ENDPOINT (the collector's base URL; spans go to `<endpoint>/v1/traces`); unset → no tracing. */
  otlpEndpoint: string | undefined;
  /** OTEL_SERVICE_NAME (default `coinplane`). */
  serviceName: string;
}

export interface WebhookConfig {
  /** WEBHOOK_SECRETS_KEY: 32 bytes, base64, sealing endpoint signing secrets (AES-256-GCM). Required when
   * NODE_ENV=production; otherwise generated once into the data folder (like the admin token). */
  secretsKey: string | undefined;
  /** WEBHOOK_SECRETS_KEY_PREVIOUS: opens secrets still sealed under the key being rotated away (never seals). */
  previousSecretsKey: string | undefined;
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
  /** How create and update resolve an endpoint's host (default: DNS, server/lib/webhooks/address-policy.ts
   * `resolveAll`). Not read from the environment: tests set it to make DNS fail or answer what they need. */
  resolve?: (hostname: string) => Promise<string[]>;
}

/** After the first attempt: 5 s, 1 min, 5 min, 30 min, 2 h, 6 h, 12 h, 24 h, 24 h → 10 attempts over ≈68.6 h, ≈2.9 days (±20% jitter). */
export const DEFAULT_WEBHOOK_RETRY_SCHEDULE_SECONDS = [5, 60, 300, 1800, 7200, 21600, 43200, 86400, 86400];

function readSecondsList(env: NodeJS.ProcessEnv, name: string, fallback: number[]): number[] {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const values = raw.split(",").map((part) => Number(part.trim()));
  if (values.some((value) => !Number.isFinite(value) || value < 0)) {
    throw new Error(`${name} must be a comma-separated list of seconds ≥ 0, got "${raw}"`);
  }
  return values;
}

/** Test-only fault injection for the system tests (server/http/fault-injection.ts, test/system/crash-and-drain.test.ts,
 * test/system/provider-reconcile.test.ts). FAULT_INJECT=`<point>:<operationId>` SIGKILLs the process at that point of
 * that operation. Never honoured when NODE_ENV=production. */
export interface FaultInjection {
  /** `crash-after-commit`: right after the business transaction commits, before the response is written. */
  crashAfterCommit: string | undefined;
  /** `crash-after-intent`: a provider step's first transaction (the intent) committed, the provider not called yet. */
  crashAfterIntent?: string;
  /** `crash-before-result`: the provider answered, the second transaction (the result) has not run. */
  crashBeforeResult?: string;
  /** FAULT_INJECT is set but NODE_ENV=production: the server warns at start that it is ignored. */
  ignoredInProduction: boolean;
}

const FAULT_POINTS = {
  "crash-after-commit": "crashAfterCommit",
  "crash-after-intent": "crashAfterIntent",
  "crash-before-result": "crashBeforeResult",
} as const;

/** The FAULT_INJECT value a parsed setting came from (the server logs it at start), or undefined when none is set. */
export function describeFaultInjection(faults: FaultInjection): string | undefined {
  for (const [point, field] of Object.entries(FAULT_POINTS)) {
    const operationId = faults[field];
    if (operationId) return `${point}:${operationId}`;
  }
  return undefined;
}

export function parseFaultInjection(env: NodeJS.ProcessEnv): FaultInjection {
  const raw = env.FAULT_INJECT;
  if (!raw) return { crashAfterCommit: undefined, ignoredInProduction: false };
  if (env.NODE_ENV === "production") return { crashAfterCommit: undefined, ignoredInProduction: true };
  const match = /^(crash-after-commit|crash-after-intent|crash-before-result):([A-Za-z0-9_]+)$/.exec(raw);
  if (!match) {
    throw new Error(`FAULT_INJECT must be crash-after-commit, crash-after-intent or crash-before-result:<operationId>, got "${raw}"`);
  }
  const faults: FaultInjection = { crashAfterCommit: undefined, ignoredInProduction: false };
  faults[FAULT_POINTS[match[1] as keyof typeof FAULT_POINTS]] = match[2];
  return faults;
}

function readInt(env: NodeJS.ProcessEnv, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be an integer ≥ ${min}, got "${raw}"`);
  return value;
}

function readBool(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  if (raw === "true") return true;
  if (raw === "false") return false;
  throw new Error(`${name} must be true or false, got "${raw}"`);
}

/** An http(s) URL, or undefined when unset. */
function readUrl(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === "") return undefined;
  if (!/^https?:\/\/[^/\s]+/.test(raw)) throw new Error(`${name} must be an http:// or https:// URL, got "${raw}"`);
  return raw.replace(/\/+$/, "");
}

/** TRUST_PROXY in Express's terms: `false`/unset, `true` (any hop — only behind a proxy that strips the header), a hop
 * count, or a comma-separated list of addresses / subnets / `loopback`, `linklocal`, `uniquelocal`. */
/** A pooler without a direct URL is refused: the change feed would LISTEN through the pooler, where a notification
 * reaches whichever client holds the server connection at the time — key revocations and operator changes would be
 * silently lost on the other instances. */
function readPooler(env: NodeJS.ProcessEnv): PoolerConfig {
  const mode = env.DATABASE_POOLER || "none";
  if (mode !== "none" && mode !== "transaction") {
    throw new Error(`DATABASE_POOLER must be none or transaction (got ${mode})`);
  }
  const directUrl = env.DATABASE_DIRECT_URL || undefined;
  if (mode === "transaction" && !directUrl) {
    throw new Error(
      "DATABASE_POOLER=transaction needs DATABASE_DIRECT_URL, a session connection to PostgreSQL past the pooler: " +
        "the change feed (LISTEN: key revocations, operator changes) and the migrations run on it",
    );
  }
  return { mode, directUrl, preparedStatements: readBool(env, "DATABASE_PREPARED_STATEMENTS", mode === "none") };
}

function trustProxy(raw: string | undefined): boolean | number | string {
  if (raw === undefined || raw === "" || raw === "false") return false;
  if (raw === "true") return true;
  if (/^\d+$/.test(raw)) return Number(raw);
  return raw;
}

/** Every problem found in the settings, reported together: an operator fixes them in one go, not one per restart. */
export class ConfigError extends Error {
  readonly problems: string[];

  constructor(problems: string[]) {
    super(problems.join("; "));
    this.problems = problems;
  }
}

/** Reads every setting; throws one ConfigError naming every invalid value. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const problems: string[] = [];
  const config = readConfig(env, problems);
  const { leaseSeconds, attemptTimeoutMs } = config.webhooks;
  // A lease that ends while its attempt may still run lets another worker send the same attempt again.
  if (leaseSeconds * 1000 <= attemptTimeoutMs) {
    problems.push(`WEBHOOK_LEASE_SECONDS (${leaseSeconds}) must be longer than WEBHOOK_ATTEMPT_TIMEOUT_MS (${attemptTimeoutMs} ms)`);
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

/** Settings a production deployment cannot run without: the one list README "Secrets", the start:cluster example, the
 * Dockerfile's `docker run` line and compose.yaml name (test/unit/production-settings-list.test.ts). Elsewhere each has a
 * default: PGlite in ./.data, a token or key generated into the data folder, GET /metrics open. A production start never
 * guesses a database: a folder left by development would be silently reused, under other keys. */
export const PRODUCTION_REQUIRED = ["DATABASE_URL", "ADMIN_TOKEN", "WEBHOOK_SECRETS_KEY", "METRICS_TOKEN"] as const;

/** What the server process starts with: loadConfig plus, when NODE_ENV=production, the secrets it must be given — all
 * problems of both kinds in one ConfigError. */
export function loadServerConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const problems: string[] = [];
  let config: Config | undefined;
  try {
    config = loadConfig(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    problems.push(...error.problems);
  }
  if (env.NODE_ENV === "production") {
    const missing = PRODUCTION_REQUIRED.filter((name) => !env[name]);
    const database = missing.includes("DATABASE_URL") ? " (DATABASE_URL: postgresql://… or an explicit pglite:<dir>)" : "";
    if (missing.length > 0) problems.push(`${listed(missing)} must be set when NODE_ENV=production${database}`);
  }
  if (problems.length > 0 || !config) throw new ConfigError(problems);
  return config;
}

/** Every variable loadServerConfig reads, found by reading a production configuration through a recording environment
 * (what a deployment file may set: test/unit/container-files.test.ts). */
export function configVariableNames(): string[] {
  const names = new Set<string>();
  const recording = new Proxy({ NODE_ENV: "production" } as NodeJS.ProcessEnv, {
    get(target, name) {
      if (typeof name === "string") names.add(name);
      return target[name as string];
    },
  });
  try {
    loadServerConfig(recording);
  } catch {
    // the production secrets are missing here: reading them is what counts
  }
  return [...names].sort();
}

function listed(names: readonly string[]): string {
  return names.length === 1 ? (names[0] as string) : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}

function readConfig(env: NodeJS.ProcessEnv, problems: string[]): Config {
  // Each reader records a bad value and carries on with its default, so one pass finds every problem.
  const safely = <T>(read: () => T, fallback: T): T => {
    try {
      return read();
    } catch (error) {
      problems.push((error as Error).message);
      return fallback;
    }
  };
  const int = (env: NodeJS.ProcessEnv, name: string, fallback: number, min = 0) =>
    safely(() => readInt(env, name, fallback, min), fallback);
  const bool = (env: NodeJS.ProcessEnv, name: string, fallback: boolean) => safely(() => readBool(env, name, fallback), fallback);
  const secondsList = (env: NodeJS.ProcessEnv, name: string, fallback: number[]) =>
    safely(() => readSecondsList(env, name, fallback), fallback);
  const url = (env: NodeJS.ProcessEnv, name: string) => safely(() => readUrl(env, name), undefined);
  const faultInjection = (env: NodeJS.ProcessEnv) =>
    safely(() => parseFaultInjection(env), { crashAfterCommit: undefined, ignoredInProduction: false });
  return {
    port: int(env, "PORT", 8080),
    host: env.HOST || "0.0.0.0",
    nodeEnv: env.NODE_ENV || "development",
    databaseUrl: env.DATABASE_URL || undefined,
    databasePoolSize: int(env, "DATABASE_POOL_SIZE", 10, 1),
    pooler: safely(() => readPooler(env), { mode: "none", directUrl: undefined, preparedStatements: true }),
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
    previousAdminToken: env.ADMIN_TOKEN_PREVIOUS || undefined,
    schedulerSecret: env.SCHEDULER_SECRET || undefined,
    previousSchedulerSecret: env.SCHEDULER_SECRET_PREVIOUS || undefined,
    metricsToken: env.METRICS_TOKEN || undefined,
    tracing: {
      otlpEndpoint: url(env, "OTEL_EXPORTER_OTLP_ENDPOINT"),
      serviceName: env.OTEL_SERVICE_NAME || "coinplane",
    },
    migrateOnStart: bool(env, "MIGRATE_ON_START", true),
    schedulerIntervalMs: int(env, "SCHEDULER_INTERVAL_MS", 5_000, 0),
    bodyLimitBytes: int(env, "BODY_LIMIT_BYTES", 100 * 1024, 1024),
    idempotencyTtlHours: int(env, "IDEMPOTENCY_TTL_HOURS", 24, 1),
    retention: {
      batchSize: int(env, "RETENTION_BATCH_SIZE", 1_000, 1),
      pauseMs: int(env, "RETENTION_BATCH_PAUSE_MS", 20, 0),
      maxBatchMs: int(env, "RETENTION_BATCH_MAX_MS", 100, 1),
    },
    idempotencyLockSeconds: int(env, "IDEMPOTENCY_LOCK_SECONDS", 20, 1),
    reconcileAfterSeconds: int(env, "RECONCILE_AFTER_SECONDS", 30, 1),
    rateLimit: {
      perKey: int(env, "RATE_LIMIT_PER_KEY", 600, 1),
      perOrganization: int(env, "RATE_LIMIT_PER_ORG", 3000, 1),
      windowSeconds: int(env, "RATE_LIMIT_WINDOW_SECONDS", 60, 1),
      keyPrefix: env.RATE_LIMIT_KEY_PREFIX || "cp:rl",
      authFailures: int(env, "RATE_LIMIT_AUTH_FAILURES", 30, 1),
      signIn: {
        perAccount: int(env, "SIGN_IN_ATTEMPTS_PER_ACCOUNT", 10, 1),
        perAddress: int(env, "SIGN_IN_ATTEMPTS_PER_ADDRESS", 100, 1),
        windowSeconds: int(env, "SIGN_IN_WINDOW_SECONDS", 900, 1),
      },
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
    faultInjection: faultInjection(env),
    webhooks: {
      secretsKey: env.WEBHOOK_SECRETS_KEY || undefined,
      previousSecretsKey: env.WEBHOOK_SECRETS_KEY_PREVIOUS || undefined,
      pollIntervalMs: int(env, "WEBHOOK_POLL_INTERVAL_MS", 250, 0),
      attemptTimeoutMs: int(env, "WEBHOOK_ATTEMPT_TIMEOUT_MS", 10_000, 1),
      retryScheduleSeconds: secondsList(env, "WEBHOOK_RETRY_SCHEDULE_SECONDS", DEFAULT_WEBHOOK_RETRY_SCHEDULE_SECONDS),
      batchSize: int(env, "WEBHOOK_BATCH_SIZE", 20, 1),
      leaseSeconds: int(env, "WEBHOOK_LEASE_SECONDS", 30, 1),
      sandboxPrivateTargets: bool(env, "WEBHOOK_SANDBOX_PRIVATE_TARGETS", env.NODE_ENV !== "production"),
      retentionDays: int(env, "EVENT_RETENTION_DAYS", 30, 1),
    },
    people: {
      sessionIdleMinutes: int(env, "SESSION_IDLE_MINUTES", 30, 1),
      sessionAbsoluteHours: int(env, "SESSION_ABSOLUTE_HOURS", 12, 1),
      invitationTtlHours: int(env, "INVITATION_TTL_HOURS", 72, 1),
      scrypt: {
        N: int(env, "PASSWORD_SCRYPT_N", 32_768, 1024),
        r: int(env, "PASSWORD_SCRYPT_R", 8, 1),
        p: int(env, "PASSWORD_SCRYPT_P", 1, 1),
      },
      publicUrl: url(env, "PUBLIC_URL"),
    },
  };
}
