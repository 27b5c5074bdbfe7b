// Process entry: configuration (every problem at once), the secrets a sandbox makes for itself, tracing when
// configured, the port — then the rest of the server (server/serve.ts), imported only after tracing has hooked the
// packages it instruments. One progress line per phase (server/startup-progress.ts).
import cluster from "node:cluster";
import { resolveAdminToken } from "./admin-token.ts";
import { loadServerConfig } from "./config.ts";
import { parseDatabaseUrl } from "./db/database-url.ts";
import { startTracing } from "./observability/tracing.ts";
import { exitOnStartupFailure } from "./startup-failure.ts";
import { startupProgress } from "./startup-progress.ts";
import { resolveWebhookSecretsKey } from "./webhook-secrets-key.ts";

const progress = startupProgress({ quiet: cluster.isWorker });
// A stop asked for while starting waits for the database to be opened whole (a half-copied template or half-applied
// migration would be worse than a slower stop); serve() then shuts down at once.
const earlySignal: { received?: NodeJS.Signals } = {};
const remember = (signal: NodeJS.Signals) => {
  earlySignal.received ??= signal;
};
process.on("SIGTERM", remember);
process.on("SIGINT", remember);

// Configuration errors (bad values, an unusable DATABASE_URL, missing production secrets) end the start with one line.
const { config, target, dataDir, admin, webhookSecretsKey } = (() => {
  try {
    const config = loadServerConfig();
    const target = parseDatabaseUrl(config.databaseUrl);
    const dataDir = target.kind === "pglite" && target.dataDir ? target.dataDir.replace(/\/pglite\/?$/, "") : "./.data";
    const admin = resolveAdminToken(config, dataDir);
    return { config, target, dataDir, admin, webhookSecretsKey: resolveWebhookSecretsKey(config, dataDir) };
  } catch (error) {
    return exitOnStartupFailure(error);
  }
})();
config.adminToken = admin.token;
// Sealed endpoint secrets (server/lib/webhooks/secret-box.ts) need the key; a generated one lives in the data folder.
config.webhooks.secretsKey = webhookSecretsKey.key;

const tracing = await startTracing(config.tracing).catch((error) => exitOnStartupFailure(error));
const { listenEarly } = await import("./http/listen-early.ts");
const listener = await listenEarly(config.port, config.host).catch((error) => exitOnStartupFailure(error, { port: config.port }));
progress.step(`configuration read, port ${config.port} taken${tracing ? `, traces to ${config.tracing.otlpEndpoint}` : ""}`);

// The database opens (PGlite compiles its WebAssembly, PostgreSQL connects, migrations apply) while the rest of the
// server's modules load: on a machine with a free core the two overlap.
const [{ openDatabase }, { createMetrics }] = await Promise.all([import("./db/open-database.ts"), import("./observability/metrics.ts")]);
const metrics = createMetrics();
const database = openDatabase({
  onPoolWait: metrics.poolWait,
  url: config.databaseUrl,
  poolSize: config.databasePoolSize,
  pooler: config.pooler,
  timeouts: config.database,
  migrate: config.migrateOnStart,
  requireMigrated: true,
  onMigrated: (applied, fromTemplate) =>
    progress.step(
      `database ${target.label}: ${fromTemplate ? "new, from the build's migrated template; " : ""}` +
        `${applied.length === 0 ? "schema up to date" : `${applied.length} migration(s) applied`}`,
    ),
}).catch((error) => exitOnStartupFailure(error, { database: target.label }));
const { serve } = await import("./serve.ts");
progress.step("server modules loaded");
await serve({
  config,
  target,
  dataDir,
  admin,
  listener,
  progress,
  tracing,
  earlySignal,
  database,
  metrics,
  stopRemembering: () => {
    process.off("SIGTERM", remember);
    process.off("SIGINT", remember);
  },
});
