// The server once configuration, secrets, tracing and the port are settled and the database is opening (server/main.ts):
// the app, background work, graceful shutdown.
import cluster from "node:cluster";
import { existsSync } from "node:fs";
import path from "node:path";
import { createApp } from "./app.ts";
import { type Config, describeFaultInjection } from "./config.ts";
import type { DatabaseTarget } from "./db/database-url.ts";
import type { Database } from "./db/open-database.ts";
import { closeCompiler, configureCompiler } from "./domain/contracts/compile-solidity.ts";
import { describeUnopenableWebhookSecret, findUnopenableWebhookSecret } from "./domain/webhooks/secrets-key-fits.ts";
import { ensureFirstOwnerInvitation } from "./first-owner.ts";
import { DEFAULT_PORTAL_FILE, portalBeingBuilt } from "./http/docs-portal.ts";
import type { EarlyListener } from "./http/listen-early.ts";
import { parseSecretsKey } from "./lib/webhooks/secret-box.ts";
import { createLogger } from "./logger.ts";
import type { Metrics } from "./observability/metrics.ts";
import type { Tracing } from "./observability/tracing.ts";
import { createRateLimiter } from "./rate-limit/rate-limiter.ts";
import { periodicJobs, startScheduler } from "./scheduler/in-process-scheduler.ts";
import { startHints } from "./start-hints.ts";
import { exitOnStartupFailure } from "./startup-failure.ts";
import type { StartupProgress } from "./startup-progress.ts";
import { startWebhookDelivery } from "./webhooks/delivery-worker.ts";

export interface ServeOptions {
  config: Config;
  target: DatabaseTarget;
  dataDir: string;
  admin: { generated: boolean; file: string | undefined };
  listener: EarlyListener;
  progress: StartupProgress;
  tracing: Tracing | undefined;
  /** Opening since before this module loaded (main.ts); exits the process on failure. */
  database: Promise<Database>;
  metrics: Metrics;
  /** A SIGTERM/SIGINT that arrived while starting (main.ts holds it back until the database is open). */
  earlySignal: { received?: NodeJS.Signals };
  stopRemembering(): void;
}

/** A WEBHOOK_SECRETS_KEY that cannot open the stored endpoint secrets ends the start with one line (every delivery
 * would fail otherwise); the database is closed first, so a PGlite folder is left unlocked. */
async function refuseUnopenableWebhookSecrets(db: Database, config: Config): Promise<void> {
  const { secretsKey, previousSecretsKey } = config.webhooks;
  const keys = [secretsKey, previousSecretsKey].filter((key): key is string => Boolean(key)).map(parseSecretsKey);
  const unopenable = await findUnopenableWebhookSecret(db.kysely, keys);
  if (!unopenable) return;
  await db.close();
  exitOnStartupFailure(new Error(describeUnopenableWebhookSecret(unopenable.endpointId)));
}

export async function serve(options: ServeOptions): Promise<void> {
  const { config, target, admin, listener, progress, tracing, metrics } = options;
  const logger = createLogger(config.logLevel);
  configureCompiler(config.compile);

  const db = await options.database;
  await refuseUnopenableWebhookSecrets(db, config);
  if (!config.migrateOnStart) progress.step(`database ${target.label}: schema up to date (MIGRATE_ON_START=false)`);

  const rateLimiter = createRateLimiter({ ...config.rateLimit, redisUrl: config.redisUrl });
  // Without Redis the server still starts; rate-limited requests answer 503 RATE_LIMIT_UNAVAILABLE until it is reachable.
  await rateLimiter.ready().catch((err) => logger.warn({ err: err.message }, "rate limit store not reachable yet"));
  const { app, health, inFlight, keyUsage } = createApp({ config, db, logger, rateLimiter, metrics });
  // Under scripts/start-cluster.ts only the primary (not a worker) makes the first owner's invitation.
  const firstOwner = cluster.isWorker
    ? undefined
    : await ensureFirstOwnerInvitation(db.kysely, config, options.dataDir).catch((err) => {
        logger.warn({ err: (err as Error).message }, "first owner invitation not made");
        return undefined;
      });
  progress.step(
    existsSync(DEFAULT_PORTAL_FILE)
      ? `docs portal: ${path.relative(process.cwd(), DEFAULT_PORTAL_FILE)}, served at /docs`
      : portalBeingBuilt()
        ? "docs portal: being built beside this start, served at /docs in a few seconds"
        : "docs portal: not built, /docs answers 404 until `npm run build` (or `npm run docs`) builds it",
  );

  const faultInject = describeFaultInjection(config.faultInjection);
  if (faultInject) logger.warn({ faultInject }, "test-only fault injection is active");
  else if (config.faultInjection.ignoredInProduction) logger.warn("FAULT_INJECT is ignored when NODE_ENV=production");

  const server = listener.server;
  server.keepAliveTimeout = 65_000;
  // Receiving a request (headers and body) is bounded too; handling it is bounded by the request deadline middleware.
  server.requestTimeout = config.requestTimeoutMs;
  server.headersTimeout = Math.min(60_000, config.requestTimeoutMs);
  listener.attach(app);
  const url = `http://localhost:${config.port}`;
  logger.info({ url, database: db.target.label, redis: Boolean(config.redisUrl) }, "coinplane listening");
  progress.step(`listening at ${url}`);
  // Under scripts/start-cluster.ts the primary prints the banner once, not every worker.
  if (!cluster.isWorker) {
    const hints = startHints({ admin, firstOwner, invitationTtlHours: config.people.invitationTtlHours, url });
    console.log(`${hints.join("\n")}\n`);
  }

  // In-process scheduler (server/scheduler/): every periodic job — workflow dispatch, approval expiry, retention purges.
  const scheduler = startScheduler({ jobs: periodicJobs({ db: db.kysely, config, logger }), logger });
  // Webhook delivery (server/webhooks/): polls the due deliveries; several instances share them (SKIP LOCKED and a lease).
  const webhookDelivery =
    config.webhooks.pollIntervalMs > 0
      ? startWebhookDelivery({ db: db.kysely, config: config.webhooks, logger, onAttemptLag: metrics.webhookAttemptLag })
      : null;

  let stopping = false;
  async function shutdown(signal: string): Promise<void> {
    if (stopping) return;
    stopping = true;
    health.draining = true;
    logger.info({ signal }, "shutting down: draining in-flight requests");
    let forced = false;
    const deadline = new Promise<void>((resolve) =>
      setTimeout(() => {
        forced = true;
        logger.warn({ inFlight: inFlight.size }, "shutdown timeout: closing remaining connections");
        server.closeAllConnections();
        resolve();
      }, config.shutdownTimeoutMs).unref(),
    );
    // Stop accepting; idle keep-alive sockets close now, busy ones after their response. Then wait for handlers whose
    // client already left: each write commits or rolls back whole before the pool closes.
    const drained = new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeIdleConnections();
    }).then(() => inFlight.idle());
    await Promise.race([drained, deadline]);
    // The scheduler finishes the job runs in flight (a dispatched step commits or rolls back whole) before the database closes.
    await scheduler.stop();
    // Attempts in flight finish and are recorded (each bounded by WEBHOOK_ATTEMPT_TIMEOUT_MS); one cut off is sent again after its lease.
    await webhookDelivery?.stop();
    await rateLimiter.close();
    await keyUsage.flush();
    await closeCompiler();
    // Bounded: a pool cannot end while a forced-out handler still holds a connection.
    await Promise.race([db.close(), new Promise((resolve) => setTimeout(resolve, 5_000).unref())]);
    // The last spans (this shutdown's included) reach the collector, or are dropped after a short wait.
    await Promise.race([tracing?.shutdown(), new Promise((resolve) => setTimeout(resolve, 2_000).unref())]);
    logger.info({ forced }, "stopped");
    process.exit(forced ? 1 : 0);
  }
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
  options.stopRemembering();
  if (options.earlySignal.received) void shutdown(options.earlySignal.received);
}
