// Process entry: configuration, database (migrations at start), HTTP server, graceful shutdown.
import cluster from "node:cluster";
import type { Server } from "node:http";
import { resolveAdminToken } from "./admin-token.ts";
import { createApp } from "./app.ts";
import { loadConfig } from "./config.ts";
import { parseDatabaseUrl } from "./db/database-url.ts";
import { openDatabase } from "./db/open-database.ts";
import { closeCompiler, configureCompiler } from "./domain/contracts/compile-solidity.ts";
import { purgeOldEvents } from "./domain/events/purge-old-events.ts";
import { purgeExpiredIdempotencyRecords } from "./idempotency/idempotency-store.ts";
import { createLogger } from "./logger.ts";
import { createRateLimiter } from "./rate-limit/rate-limiter.ts";
import { startScheduler } from "./scheduler/in-process-scheduler.ts";
import { exitOnStartupFailure } from "./startup-failure.ts";
import { resolveWebhookSecretsKey } from "./webhook-secrets-key.ts";
import { startWebhookDelivery } from "./webhooks/delivery-worker.ts";

// Configuration errors (a bad number, an unusable DATABASE_URL, a missing production secret) end the start with one line.
const { config, target, dataDir, admin, webhookSecretsKey } = (() => {
  try {
    const config = loadConfig();
    const target = parseDatabaseUrl(config.databaseUrl);
    const dataDir = target.kind === "pglite" && target.dataDir ? target.dataDir.replace(/\/pglite\/?$/, "") : "./.data";
    const admin = resolveAdminToken(config, dataDir);
    return { config, target, dataDir, admin, webhookSecretsKey: resolveWebhookSecretsKey(config, dataDir) };
  } catch (error) {
    return exitOnStartupFailure(error);
  }
})();
const logger = createLogger(config.logLevel);
configureCompiler(config.compile);
// Read before it is overwritten: the banner says where a token not given in ADMIN_TOKEN is kept.
const adminTokenFromEnv = config.adminToken !== undefined;
config.adminToken = admin.token;
// Sealed endpoint secrets (server/lib/webhooks/secret-box.ts) need the key; a generated one lives in the data folder.
config.webhooks.secretsKey = webhookSecretsKey.key;

const db = await openDatabase({ url: config.databaseUrl, poolSize: config.databasePoolSize, timeouts: config.database }).catch((error) =>
  exitOnStartupFailure(error, { database: target.label }),
);
const rateLimiter = createRateLimiter({ ...config.rateLimit, redisUrl: config.redisUrl });
// Without Redis the server still starts; rate-limited requests answer 503 RATE_LIMIT_UNAVAILABLE until it is reachable.
await rateLimiter.ready().catch((err) => logger.warn({ err: err.message }, "rate limit store not reachable yet"));
const { app, health, inFlight } = createApp({ config, db, logger, rateLimiter });

const { crashAfterCommit, ignoredInProduction } = config.faultInjection;
if (crashAfterCommit) logger.warn({ faultInject: `crash-after-commit:${crashAfterCommit}` }, "test-only fault injection is active");
else if (ignoredInProduction) logger.warn("FAULT_INJECT is ignored when NODE_ENV=production");

// Express 5 hands a listen error (port taken, not allowed) to this callback: the start ends there, nothing is printed as running.
const server: Server = app.listen(config.port, config.host, (error?: Error) => {
  if (error) exitOnStartupFailure(error, { port: config.port });
  const url = `http://localhost:${config.port}`;
  logger.info({ url, database: db.target.label, redis: Boolean(config.redisUrl) }, "coinplane listening");
  // Under scripts/start-cluster.ts the primary prints the banner once, not every worker.
  if (cluster.isWorker) return;
  console.log(`\nCoinplane is running at ${url}  (database: ${db.target.label})`);
  if (admin.generated) console.log(`Admin token (shown once, stored in ${dataDir}/admin-token): ${admin.token}`);
  else if (!adminTokenFromEnv) console.log(`Admin token: stored in ${dataDir}/admin-token`);
  console.log(
    `Create a key: ADMIN_TOKEN=… npm run cli -- keys create --org org_demo --env sandbox --scopes wallets:write,payments:write\n`,
  );
});
server.keepAliveTimeout = 65_000;
// Receiving a request (headers and body) is bounded too; handling it is bounded by the request deadline middleware.
server.requestTimeout = config.requestTimeoutMs;
server.headersTimeout = Math.min(60_000, config.requestTimeoutMs);

// In-process scheduler: dispatches due corridor workflow runs (the same code as POST corridor/workflows/dispatch).
const scheduler = config.schedulerIntervalMs > 0 ? startScheduler({ db: db.kysely, intervalMs: config.schedulerIntervalMs, logger }) : null;
// Webhook delivery (server/webhooks/): polls the due deliveries; several instances share them (SKIP LOCKED and a lease).
const webhookDelivery =
  config.webhooks.pollIntervalMs > 0 ? startWebhookDelivery({ db: db.kysely, config: config.webhooks, logger }) : null;

const purge = setInterval(() => {
  purgeExpiredIdempotencyRecords(db.kysely).catch((err) => logger.warn({ err }, "idempotency purge failed"));
  purgeOldEvents(db.kysely, { now: new Date(), retentionDays: config.webhooks.retentionDays }).catch((err) =>
    logger.warn({ err }, "event retention purge failed"),
  );
}, 10 * 60_000);
purge.unref();

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  health.draining = true;
  logger.info({ signal }, "shutting down: draining in-flight requests");
  clearInterval(purge);
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
  // The scheduler finishes the dispatch in flight (its step commits or rolls back whole) before the database closes.
  await scheduler?.stop();
  // Attempts in flight finish and are recorded (each bounded by WEBHOOK_ATTEMPT_TIMEOUT_MS); one cut off is sent again after its lease.
  await webhookDelivery?.stop();
  await rateLimiter.close();
  await closeCompiler();
  // Bounded: a pool cannot end while a forced-out handler still holds a connection.
  await Promise.race([db.close(), new Promise((resolve) => setTimeout(resolve, 5_000).unref())]);
  logger.info({ forced }, "stopped");
  process.exit(forced ? 1 : 0);
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
