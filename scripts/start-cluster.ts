// `npm run start:cluster`: CLUSTER_SIZE server workers (default: one per CPU) sharing PORT through node:cluster, each
// running server/main.ts unchanged, on one PostgreSQL (DATABASE_URL) and one Redis (REDIS_URL, so the rate budgets are
// shared). The primary restarts a worker that dies, and on SIGTERM/SIGINT forwards SIGTERM so every worker drains its
// in-flight requests (SHUTDOWN_TIMEOUT_MS) before the primary exits.
import cluster, { type Worker } from "node:cluster";
import { availableParallelism } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { resolveAdminToken } from "../server/admin-token.ts";
import { loadServerConfig } from "../server/config.ts";
import { parseDatabaseUrl } from "../server/db/database-url.ts";

function fail(message: string): never {
  console.error(`start:cluster: ${message}`);
  process.exit(1);
}

/** Runs a configuration step; a bad value ends the primary with its message instead of a stack trace. */
function orFail<T>(step: () => T): T {
  try {
    return step();
  } catch (error) {
    return fail((error as Error).message);
  }
}

const config = orFail(() => loadServerConfig());
const target = orFail(() => parseDatabaseUrl(config.databaseUrl));
if (target.kind !== "postgres") {
  fail(
    "DATABASE_URL must be a postgres:// URL: PGlite is an embedded, single-process database that several workers cannot " +
      "share. Use `npm start` for PGlite.",
  );
}
if (!config.redisUrl) {
  fail("REDIS_URL is required: without Redis each worker would keep its own rate budget (N times the configured limit).");
}
const rawSize = process.env.CLUSTER_SIZE;
const size = rawSize ? Number(rawSize) : availableParallelism();
if (!Number.isInteger(size) || size < 1) fail(`CLUSTER_SIZE must be an integer ≥ 1, got "${rawSize}"`);

// One admin token for all workers (in a sandbox deployment without ADMIN_TOKEN, workers would otherwise race to
// generate one each).
const admin = resolveAdminToken(config, "./.data");
// Compiled (dist/scripts/start-cluster.js) the workers run dist/server/main.js; from source, main.ts with the primary's
// flags (tsx's loader included).
const compiled = import.meta.url.endsWith(".js");
const mainScript = path.resolve(path.dirname(fileURLToPath(import.meta.url)), compiled ? "../server/main.js" : "../server/main.ts");
cluster.setupPrimary({ exec: mainScript });

const RESTART_DELAY_MS = 1_000;
const MIN_UPTIME_MS = 5_000;
let stopping = false;
/** Live workers (id → start time). Not cluster.workers: a worker may still be listed there when its 'exit' fires. */
const startedAt = new Map<number, number>();

function fork(): Worker {
  const worker = cluster.fork({ ADMIN_TOKEN: admin.token });
  startedAt.set(worker.id, Date.now());
  return worker;
}

cluster.on("exit", (worker, code, signal) => {
  const uptime = Date.now() - (startedAt.get(worker.id) ?? 0);
  startedAt.delete(worker.id);
  if (stopping) {
    if (startedAt.size === 0) {
      console.log("start:cluster: all workers stopped");
      process.exit(0);
    }
    return;
  }
  console.error(`start:cluster: worker ${worker.process.pid} died (${signal ?? `code ${code}`}); starting another`);
  // A worker that dies right after starting (bad configuration, database down) is restarted after a pause, not in a loop.
  setTimeout(
    () => {
      if (!stopping) fork();
    },
    uptime < MIN_UPTIME_MS ? RESTART_DELAY_MS : 0,
  );
});

function shutdown(signal: string): void {
  if (stopping) return;
  stopping = true;
  console.log(`start:cluster: ${signal}: draining ${startedAt.size} workers`);
  for (const worker of Object.values(cluster.workers ?? {})) if (!worker?.isDead()) worker?.process.kill("SIGTERM");
  if (startedAt.size === 0) process.exit(0);
  // Workers close themselves after SHUTDOWN_TIMEOUT_MS; this is the backstop for one that hangs.
  setTimeout(() => {
    console.error("start:cluster: workers did not stop in time; killing them");
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill("SIGKILL");
    process.exit(1);
  }, config.shutdownTimeoutMs + 5_000).unref();
}
process.on("SIGTERM", () => shutdown("SIGTERM"));
process.on("SIGINT", () => shutdown("SIGINT"));

for (let i = 0; i < size; i++) fork();
console.log(`\nCoinplane cluster: ${size} workers on http://localhost:${config.port}  (database: ${target.label})`);
if (admin.file) console.log(`Admin token: ${admin.generated ? "written to" : "kept in"} ${admin.file} (npm run cli reads it there)`);
