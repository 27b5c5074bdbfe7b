// `npm run bench:retention`: does a purge of a million expired rows disturb live requests? 1M expired idempotency
// records are loaded through SQL (generate_series), then one Coinplane instance on PostgreSQL takes a steady stream of
// live requests (keyed bank transfers and GETs, 4 at a time) for BENCH_SECONDS without a purge, then again while the
// idempotency purge (server/idempotency/idempotency-store.ts, the job's code, bounded batches) deletes the million.
// Prints p50/p99 of the live requests in both windows and the purge's batches (count, slowest, total time, how many the
// bound cancelled). A run that stops at the floor is run again until the million is gone, as the job's next runs would.
// Env: BENCH_ROWS (default 1000000), BENCH_SECONDS (default 15), RETENTION_BATCH_SIZE / RETENTION_BATCH_PAUSE_MS /
// RETENTION_BATCH_MAX_MS.
import { createServer } from "node:net";
import pg from "pg";
import { openDatabase } from "../server/db/open-database.ts";
import { DEFAULT_RETENTION_BATCHES } from "../server/db/purge-in-batches.ts";
import { purgeExpiredIdempotencyRecords } from "../server/idempotency/idempotency-store.ts";
import { startCoinplane, withPostgresDatabase } from "./coinplane-server.ts";
import { stopProcess } from "./processes.ts";
import { prepareScenarios } from "./scenarios.ts";

const rows = Number(process.env.BENCH_ROWS ?? 1_000_000);
const seconds = Number(process.env.BENCH_SECONDS ?? 15);
const batches = {
  batchSize: Number(process.env.RETENTION_BATCH_SIZE ?? DEFAULT_RETENTION_BATCHES.batchSize),
  pauseMs: Number(process.env.RETENTION_BATCH_PAUSE_MS ?? DEFAULT_RETENTION_BATCHES.pauseMs),
  maxBatchMs: Number(process.env.RETENTION_BATCH_MAX_MS ?? DEFAULT_RETENTION_BATCHES.maxBatchMs),
};

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer().listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? Number.NaN;

await withPostgresDatabase(async (databaseUrl) => {
  const server = await startCoinplane(databaseUrl, await freePort());
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  const purger = await openDatabase({ url: databaseUrl, poolSize: 1, migrate: false });
  try {
    const t0 = Date.now();
    await db.query(
      `INSERT INTO "IdempotencyRecord" (id, "organizationId", "apiKeyId", method, path, key, fingerprint, state, "lockToken",
         "lockedUntil", "responseStatus", "responseBody", "createdAt", "expiresAt")
       SELECT 'idem_old_' || g, 'org_retention_' || (g % 10), 'key_old', 'POST', '/api/v1/payments', 'k' || g, 'f', 'completed', 't',
         now() - interval '2 days', 201, repeat('x', 400), now() - interval '2 days', now() - interval '1 day'
       FROM generate_series(1, $1::int) AS g`,
      [rows],
    );
    await db.query(`ANALYZE "IdempotencyRecord"`);
    console.error(`${rows} expired records loaded in ${Math.round((Date.now() - t0) / 1000)} s`);
    const scenarios = await prepareScenarios(server.url);
    const get = scenarios.find((s) => s.id === "wallet_get")?.requests[0];
    const write = scenarios.find((s) => s.id === "v2_write")?.requests[0];
    if (!get || !write) throw new Error("scenarios missing");
    let counter = 0;
    const live = async (running: () => boolean, into: { get: number[]; write: number[] }) => {
      while (running()) {
        const isWrite = counter++ % 2 === 0;
        const started = performance.now();
        const res = await fetch(`${server.url}${isWrite ? write.path : get.path}`, {
          method: isWrite ? "POST" : "GET",
          headers: {
            ...(isWrite ? { ...(get.headers as Record<string, string>), "idempotency-key": `ret-${counter}` } : get.headers),
          } as Record<string, string>,
          body: isWrite ? (write.body as string) : undefined,
        });
        await res.arrayBuffer();
        if (res.status >= 300) throw new Error(`live request: ${res.status}`);
        (isWrite ? into.write : into.get).push(performance.now() - started);
      }
    };
    const window = async (during?: () => Promise<void>) => {
      const into = { get: [] as number[], write: [] as number[] };
      const until = Date.now() + seconds * 1000;
      // Live requests go on for the window and, with a purge, until it ends: every batch runs under live load.
      let done = during === undefined;
      const running = () => Date.now() < until || !done;
      await Promise.all([
        ...Array.from({ length: 4 }, () => live(running, into)),
        during?.().finally(() => {
          done = true;
        }),
      ]);
      return into;
    };
    // Warm-up, then the quiet window, then the purge's.
    await window();
    const quiet = await window();
    const batchMs: number[] = [];
    let purged = 0;
    let purgeMs = 0;
    let runs = 0;
    let cancelled = 0;
    const busy = await window(async () => {
      const started = Date.now();
      // A run stopped at the floor is run again (after a second, not the job's 10 minutes) while loaded rows remain.
      for (let stopped = true; stopped && purged < rows; runs++) {
        if (runs > 0) await new Promise((resolve) => setTimeout(resolve, 1_000));
        const report = await purgeExpiredIdempotencyRecords(purger.kysely, new Date(), batches, (_deleted, ms) => batchMs.push(ms));
        purged += report.rows;
        cancelled += report.cancelled;
        stopped = report.stoppedAtFloor;
      }
      purgeMs = Date.now() - started;
    });
    batchMs.sort((a, b) => a - b);
    const line = (name: string, q: number[], b: number[]) => {
      q.sort((x, y) => x - y);
      b.sort((x, y) => x - y);
      return `| ${name} | ${pct(q, 0.5).toFixed(1)} / ${pct(q, 0.99).toFixed(1)} | ${pct(b, 0.5).toFixed(1)} / ${pct(b, 0.99).toFixed(1)} | ${(pct(b, 0.99) / pct(q, 0.99)).toFixed(2)} |`;
    };
    console.log(
      [
        `${rows.toLocaleString("en")} expired idempotency records purged in batches of at most ${batches.batchSize} (pause ${batches.pauseMs} ms, ` +
          `bound ${batches.maxBatchMs} ms): ${purged.toLocaleString("en")} deleted in ${(purgeMs / 1000).toFixed(1)} s ` +
          `(${runs} run${runs === 1 ? "" : "s"}), ${batchMs.length} batches of which ${cancelled} cancelled by the bound, ` +
          `batch p50 ${pct(batchMs, 0.5).toFixed(1)} ms, p99 ${pct(batchMs, 0.99).toFixed(1)} ms, slowest ${batchMs.at(-1)?.toFixed(1)} ms ` +
          `(live requests ran ${seconds} s quiet, then for as long as the purge ran).`,
        "",
        "| live requests (4 at a time) | quiet p50 / p99 ms | during the purge p50 / p99 ms | p99 ratio |",
        "|---|---|---|---|",
        line("GET /api/v1/wallets/{id}", quiet.get, busy.get),
        line("POST bank-transfer (keyed)", quiet.write, busy.write),
      ].join("\n"),
    );
  } finally {
    await purger.close();
    await db.end();
    await stopProcess(server.child);
  }
});
