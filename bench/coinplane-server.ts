// Shared by `npm run bench` and `npm run bench:profile`: a throwaway PostgreSQL database, and a Coinplane process set up
// the way the benchmark measures it.
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { root, type Started, startProcess } from "./processes.ts";
import { ADMIN_TOKEN } from "./scenarios.ts";

export const POSTGRES_BASE = process.env.BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

/** Creates a database on the bench PostgreSQL server, runs `work` with its URL, and drops it. */
export async function withPostgresDatabase<T>(work: (url: string) => Promise<T>): Promise<T> {
  const name = `coinplane_bench_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: POSTGRES_BASE });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(POSTGRES_BASE);
  url.pathname = `/${name}`;
  try {
    return await work(url.toString());
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

/**
 * Which Coinplane the benchmarks run: the TypeScript source as `npm start` runs it (the default: `node
 * --experimental-strip-types server/main.ts`, processes.ts's sourceFlags), or with BENCH_SERVER=build the tsc build the
 * container image runs (`node dist/server/main.js`, `npm run start:prod`; run `npm run build` first). Both run the same
 * JavaScript: Node's type stripping only blanks the types out (until issue 39's seventh session `npm start` ran tsx,
 * whose esbuild `keepNames` gave every function made at run time its name with an `Object.defineProperty` call).
 */
export const SERVER_FROM_BUILD = process.env.BENCH_SERVER === "build";
const SERVER_SCRIPT = SERVER_FROM_BUILD ? "dist/server/main.js" : "server/main.ts";
/** How the report names the Coinplane process. */
export const SERVER_COMMAND = SERVER_FROM_BUILD
  ? "node dist/server/main.js (the tsc build: npm run start:prod, the container image)"
  : "node --experimental-strip-types server/main.ts (as npm start)";

/** Starts Coinplane as in production (NODE_ENV=production, info logs), without its scheduler. */
export function startCoinplane(databaseUrl: string, port: number, cwd?: string, env: Record<string, string> = {}): Promise<Started> {
  if (SERVER_FROM_BUILD && !existsSync(path.join(cwd ?? root, SERVER_SCRIPT))) {
    throw new Error(`BENCH_SERVER=build runs ${SERVER_SCRIPT}, which is not there: run npm run build first (in ${cwd ?? root})`);
  }
  return startProcess(
    SERVER_SCRIPT,
    port,
    {
      DATABASE_URL: databaseUrl,
      ADMIN_TOKEN,
      // Required in production (it seals webhook signing secrets); a fixed bench-only value.
      WEBHOOK_SECRETS_KEY: Buffer.alloc(32, 7).toString("base64"),
      // Required in production too (GET /metrics); never scraped during a run.
      METRICS_TOKEN: "bench-metrics-token-0123456789",
      // The delivery-lag scenario's receiver listens on 127.0.0.1 (a sandbox endpoint on the bench machine).
      WEBHOOK_SANDBOX_PRIVATE_TARGETS: "true",
      SCHEDULER_INTERVAL_MS: "0",
      // The benchmark measures the server, not the rate limiter's verdict: budgets far above what a run can spend.
      RATE_LIMIT_PER_KEY: "1000000000",
      RATE_LIMIT_PER_ORG: "1000000000",
      NODE_ENV: "production",
      ...env,
    },
    "/healthz",
    cwd,
  );
}
