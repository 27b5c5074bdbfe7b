// Retention purges delete in bounded batches (server/db/purge-in-batches.ts): no batch deletes more than
// RETENTION_BATCH_SIZE rows, the purge goes on until a batch comes back short, live rows stay, and each batch is a
// transaction bounded by RETENTION_BATCH_MAX_MS (statement_timeout, lock_timeout): a batch the bound cancels is retried
// with half the rows, down to the floor, where the run stops. Runs on PGlite and PostgreSQL; the bound itself is proved
// on PostgreSQL (PGlite is one embedded connection and ignores statement_timeout), directly and through PgBouncer in
// transaction mode: a second connection holds the expired rows' locks, and the purge gives up within about the bound
// instead of waiting for them.
import { Writable } from "node:stream";
import { sql } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type PgBouncer, startPgBouncer } from "../../scripts/pgbouncer.ts";
import { type Database, openDatabase } from "../../server/db/open-database.ts";
import { DEFAULT_RETENTION_BATCHES, purgeInBatches } from "../../server/db/purge-in-batches.ts";
import { purgeOldEvents } from "../../server/domain/events/purge-old-events.ts";
import { purgeExpiredIdempotencyRecords } from "../../server/idempotency/idempotency-store.ts";
import { createLogger } from "../../server/logger.ts";
import { idempotencyPurgeJob } from "../../server/scheduler/idempotency-purge-job.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database.ts";

const onPostgres = process.env.TEST_DATABASE_URL?.startsWith("postgres") ?? false;
let testDb: TestDatabase;
let db: Database;
const NOW = new Date("2026-11-25T12:00:00Z");
/** The tests of batch sizes run with a bound no batch reaches, so a loaded machine cannot cancel (and halve) one. */
const UNBOUNDED = 60_000;
/** How late a cancelled batch may end past the bound, on a loaded shared machine. */
const SLACK_MS = 900;

beforeAll(async () => {
  testDb = await createTestDatabase({ migrated: true });
  db = await openDatabase({ url: testDb.url, pgliteTemplate: testDb.pgliteTemplate, poolSize: 1 });
});
afterAll(async () => {
  await db?.close();
  await testDb?.drop();
});

/** `n` idempotency records of `org` expiring `offsetMs` from NOW, inserted by one statement. */
async function idempotencyRecords(n: number, offsetMs: number, prefix: string, org = "org_ret"): Promise<void> {
  await sql`INSERT INTO "IdempotencyRecord" (id, "organizationId", "apiKeyId", method, path, key, fingerprint, state, "lockToken",
      "lockedUntil", "expiresAt")
    SELECT ${prefix} || g, ${org}, 'key_ret', 'POST', '/x', ${prefix} || g, 'f', 'completed', 't', ${NOW}::timestamptz,
      ${new Date(NOW.getTime() + offsetMs)}::timestamptz
    FROM generate_series(1, ${n}) AS g`.execute(db.kysely);
}

async function idsOf(org: string): Promise<string[]> {
  const rows = await db.kysely.selectFrom("IdempotencyRecord").select("id").where("organizationId", "=", org).execute();
  return rows.map((r) => r.id).sort();
}

const names = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i + 1}`).sort();

const cancelledError = () => Object.assign(new Error("canceling statement due to statement timeout"), { code: "57014" });

describe("purgeInBatches", () => {
  it("stops at the first short batch, pauses between full ones, and reports what it did", async () => {
    const sizes = [3, 3, 1];
    const calls: number[] = [];
    const started = Date.now();
    const report = await purgeInBatches(
      db.kysely,
      async (_tx, limit) => {
        calls.push(limit);
        return sizes.shift() ?? 0;
      },
      { batchSize: 3, pauseMs: 30, maxBatchMs: UNBOUNDED },
    );
    expect(report).toMatchObject({ rows: 7, batches: 3, cancelled: 0, stoppedAtFloor: false });
    expect(report.slowestBatchMs).toBeGreaterThan(0);
    expect(calls).toEqual([3, 3, 3]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(55);
  });

  it("runs each batch in a transaction with its own bounds, which end with it", async () => {
    const seen: Record<string, string>[] = [];
    await purgeInBatches(
      db.kysely,
      async (tx) => {
        const { rows } = await sql<Record<string, string>>`SELECT current_setting('statement_timeout') AS statement,
          current_setting('lock_timeout') AS lock, current_setting('synchronous_commit') AS sync`.execute(tx);
        seen.push(rows[0] as Record<string, string>);
        return 0;
      },
      { batchSize: 10, pauseMs: 0, maxBatchMs: 150 },
    );
    expect(seen).toEqual([{ statement: "150ms", lock: "150ms", sync: "off" }]);
    // SET LOCAL: the connection (one in this pool) is back to its own settings once the batch committed.
    const { rows } = await sql<{ sync: string; lock: string }>`SELECT current_setting('synchronous_commit') AS sync,
      current_setting('lock_timeout') AS lock`.execute(db.kysely);
    expect(rows[0]).toEqual({ sync: "on", lock: "0" });
  });

  it("retries a cancelled batch with half the rows, grows back after fast ones, and stops when the floor is cancelled", async () => {
    const calls: number[] = [];
    // Batches above 100 rows are cancelled (as the bound would cancel them) and smaller ones delete a full batch, until
    // five have; from then on every batch is cancelled.
    let full = 0;
    const report = await purgeInBatches(
      db.kysely,
      async (_tx, limit) => {
        calls.push(limit);
        if (limit > 100 || full >= 5) throw cancelledError();
        full++;
        return limit;
      },
      { batchSize: 1_000, pauseMs: 0, maxBatchMs: UNBOUNDED },
    );
    expect(calls).toEqual([
      ...[1_000, 500, 250, 125], // cancelled: halved each time
      ...[62, 78, 98], // fast: a quarter more each time
      123, // cancelled again: halved
      ...[61, 77], // fast
      ...[97, 48, 24, 12, 10], // cancelled from then on: halved down to the floor, cancelled there too
    ]);
    expect(report).toMatchObject({ rows: 62 + 78 + 98 + 61 + 77, batches: 5, cancelled: 10, stoppedAtFloor: true });
  });

  it("lets any other error through", async () => {
    await expect(
      purgeInBatches(
        db.kysely,
        async () => {
          throw Object.assign(new Error("relation does not exist"), { code: "42P01" });
        },
        { batchSize: 10, pauseMs: 0 },
      ),
    ).rejects.toMatchObject({ code: "42P01" });
  });
});

describe("idempotency records", () => {
  it("2,500 expired records go in batches of at most 1,000; unexpired ones stay", async () => {
    await idempotencyRecords(2_500, -3_600_000, "old_");
    await idempotencyRecords(10, 3_600_000, "live_");
    const batches: number[] = [];
    const ms: number[] = [];
    const purged = await purgeExpiredIdempotencyRecords(
      db.kysely,
      NOW,
      { batchSize: 1_000, pauseMs: 0, maxBatchMs: UNBOUNDED },
      (deleted, took) => {
        batches.push(deleted);
        ms.push(took);
      },
    );
    expect(purged).toMatchObject({ rows: 2_500, batches: 3, cancelled: 0, stoppedAtFloor: false });
    expect(batches).toEqual([1_000, 1_000, 500]);
    expect(await idsOf("org_ret")).toEqual(names("live_", 10));
    // A batch of the default size is one short transaction: the locks it takes last as long as it runs. Timed on
    // PostgreSQL only (PGlite runs in this process, on a loaded machine's shared core).
    expect(DEFAULT_RETENTION_BATCHES).toEqual({ batchSize: 1_000, pauseMs: 20, maxBatchMs: 100 });
    if (onPostgres) expect([...ms].sort((a, b) => a - b)[1]).toBeLessThan(100);
  });

  it("the purge job logs one line per run with its report", async () => {
    // The job purges what expired by the clock (after NOW): first whatever that is, then 30 records of its own.
    await purgeExpiredIdempotencyRecords(db.kysely, new Date(), { batchSize: 1_000, pauseMs: 0, maxBatchMs: UNBOUNDED });
    await idempotencyRecords(30, Date.now() - NOW.getTime() - 3_600_000, "job_", "org_ret_job");
    const lines: Record<string, unknown>[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(JSON.parse(String(chunk)));
        done();
      },
    });
    const job = idempotencyPurgeJob({
      db: db.kysely,
      intervalMs: 60_000,
      batches: { batchSize: 1_000, pauseMs: 0, maxBatchMs: UNBOUNDED },
      logger: createLogger("info", stream),
    });
    await job.run();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ msg: "idempotency purge", rows: 30, batches: 1, cancelled: 0, stoppedAtFloor: false });
    expect(lines[0]?.slowestBatchMs).toEqual(expect.any(Number));
    expect(await idsOf("org_ret_job")).toEqual([]);
  });
});

describe("events", () => {
  it("1,200 old events without deliveries go in batches of at most 500", async () => {
    const old = new Date(NOW.getTime() - 40 * 86_400_000);
    await sql`INSERT INTO "Event" (id, "organizationId", environment, type, "resourceId", data, "createdAt")
      SELECT 'evt_old_' || g, 'org_ret', 'sandbox', 'wallet.created', 'wal_x', '{}', ${old}::timestamptz
      FROM generate_series(1, 1200) AS g`.execute(db.kysely);
    await sql`INSERT INTO "Event" (id, "organizationId", environment, type, "resourceId", data, "createdAt")
      VALUES ('evt_recent', 'org_ret', 'sandbox', 'wallet.created', 'wal_x', '{}', ${NOW}::timestamptz)`.execute(db.kysely);
    const batches: number[] = [];
    const purged = await purgeOldEvents(db.kysely, {
      now: NOW,
      retentionDays: 30,
      batches: { batchSize: 500, pauseMs: 0, maxBatchMs: UNBOUNDED },
      onBatch: (deleted) => batches.push(deleted),
    });
    // One report for the run: the deliveries' pass (one empty batch) and the events' (three).
    expect(purged).toMatchObject({ deliveries: 0, events: 1_200, rows: 1_200, batches: 4, cancelled: 0, stoppedAtFloor: false });
    expect(batches).toEqual([0, 500, 500, 200]);
    const left = await db.kysely.selectFrom("Event").select("id").where("organizationId", "=", "org_ret").execute();
    expect(left).toEqual([{ id: "evt_recent" }]);
  });
});

// The bound, for real: PostgreSQL cancels what runs or waits longer than RETENTION_BATCH_MAX_MS.
describe.runIf(onPostgres)("the bound on PostgreSQL", () => {
  const BOUND_MS = 100;

  it("a batch running longer than the bound is cancelled by statement_timeout, halved, and the run stops at the floor", async () => {
    const attempts: { ms: number; cancelled: boolean }[] = [];
    const limits: number[] = [];
    const report = await purgeInBatches(
      db.kysely,
      async (tx, limit) => {
        limits.push(limit);
        await sql`SELECT pg_sleep(2)`.execute(tx);
        // Unbounded, the sleep ends and this short batch ends the run: one batch of 2 s, nothing cancelled.
        return 0;
      },
      { batchSize: 40, pauseMs: 0, maxBatchMs: BOUND_MS },
      (_deleted, ms, cancelled) => attempts.push({ ms, cancelled }),
    );
    expect(limits).toEqual([40, 20, 10]);
    expect(report).toMatchObject({ rows: 0, batches: 0, cancelled: 3, stoppedAtFloor: true });
    for (const attempt of attempts) {
      expect(attempt.cancelled).toBe(true);
      expect(attempt.ms).toBeLessThan(BOUND_MS + SLACK_MS);
    }
  });

  for (const via of ["direct", "PgBouncer (transaction mode)"] as const) {
    describe(via, () => {
      let bouncer: PgBouncer | undefined;
      let purger: Database;
      const org = via === "direct" ? "org_lock_direct" : "org_lock_pooler";
      beforeAll(async () => {
        if (via === "direct") {
          purger = db;
          return;
        }
        bouncer = await startPgBouncer();
        purger = await openDatabase({
          url: bouncer.url(testDb.url),
          poolSize: 1,
          migrate: false,
          pooler: { mode: "transaction", directUrl: testDb.url, preparedStatements: false },
        });
      });
      afterAll(async () => {
        if (purger !== db) await purger?.close();
        await bouncer?.stop();
      });

      it("gives up on rows another transaction holds within about the bound, stops at the floor, and the next run purges them", async () => {
        await idempotencyRecords(300, -3_600_000, `${org}_old_`, org);
        await idempotencyRecords(5, 3_600_000, `${org}_live_`, org);
        // Every expired row is locked, so every batch meets a lock whatever rows the planner picks first.
        const holder = new pg.Client({ connectionString: testDb.url });
        await holder.connect();
        let released = false;
        const release = async () => {
          if (released) return;
          released = true;
          await holder.query("ROLLBACK");
        };
        // Without the bound the purge would wait for these locks: they go after 4 s at the latest, so such a purge
        // ends (then deleting everything at once), and the assertions below tell it apart.
        const safety = setTimeout(() => void release(), 4_000);
        try {
          await holder.query("BEGIN");
          const locked = await holder.query(
            `SELECT id FROM "IdempotencyRecord" WHERE "organizationId" = $1 AND "expiresAt" <= $2 FOR UPDATE`,
            [org, NOW],
          );
          expect(locked.rowCount).toBe(300);
          const attempts: { ms: number; cancelled: boolean }[] = [];
          const report = await purgeExpiredIdempotencyRecords(
            purger.kysely,
            NOW,
            { batchSize: 1_000, pauseMs: 0, maxBatchMs: BOUND_MS },
            (_deleted, ms, cancelled) => attempts.push({ ms, cancelled }),
          );
          expect(released).toBe(false);
          // 1000, 500, 250, 125, 62, 31, 15 and the floor, 10: each waited for a lock about the bound, then gave up.
          expect(report).toMatchObject({ rows: 0, batches: 0, cancelled: 8, stoppedAtFloor: true });
          expect(attempts.map((a) => a.cancelled)).toEqual(Array(8).fill(true));
          for (const attempt of attempts) {
            expect(attempt.ms).toBeGreaterThanOrEqual(BOUND_MS * 0.9);
            expect(attempt.ms).toBeLessThan(BOUND_MS + SLACK_MS);
          }
          expect(report.slowestBatchMs).toBeLessThan(BOUND_MS + SLACK_MS);
          // The locked rows are all still there (a cancelled batch rolled back), and so are the live ones.
          expect(await idsOf(org)).toEqual([...names(`${org}_old_`, 300), ...names(`${org}_live_`, 5)].sort());
        } finally {
          clearTimeout(safety);
          await release();
          await holder.end();
        }
        // The locks are gone: the next run deletes every expired row, and no live one.
        const next = await purgeExpiredIdempotencyRecords(purger.kysely, NOW, { batchSize: 1_000, pauseMs: 0, maxBatchMs: BOUND_MS });
        expect(next.rows).toBe(300);
        expect(next.stoppedAtFloor).toBe(false);
        expect(await idsOf(org)).toEqual(names(`${org}_live_`, 5));
      });
    });
  }
});
