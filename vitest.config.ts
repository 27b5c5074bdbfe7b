import { defineConfig } from "vitest/config";
import LongFilesFirstSequencer from "./test/long-files-first-sequencer.ts";

// `npm test` runs every file below on a 2-core machine in ≤ 15 min (docs/performance.md "The test suite"):
//
//   group 0, in parallel (two workers sharing their module graph across files, each file its own database):
//     pglite    unit, contract, HTTP, db, SDK, browser, docs and security tests on embedded PGlite
//     postgres  the HTTP and db tests again on the machine's PostgreSQL (each file's database is copied from one
//               migrated template, test/global-setup.ts)
//     types     type-level tests (tsc)
//   group 1, one file at a time:  pglite-serial    files that measure time or write shared folders (below)
//   group 2, two files at a time: postgres-system  test/system (server processes, signals, dist/): most of their time
//                                                  is a child process starting, so two files keep both cores busy
//   group 3, one file at a time:  postgres-serial  the system files with tight time bounds (cut connections) and the
//                                                  timing-sensitive db/HTTP files on PostgreSQL
//
// A new file lands by its folder: test/http/*.test.ts runs on both databases in parallel (but DATABASE_AGNOSTIC), test/system/* in
// postgres-system. A file that measures wall time or event-loop stalls, or writes a folder another file reads, belongs in
// a SERIAL list, where no other test file competes with it for the two cores.
const postgresUrl = process.env.TEST_DATABASE_URL || "postgresql://postgres@127.0.0.1:5432/postgres";

/** On PGlite, one file at a time: they time the event loop or worker threads, or write docs/portal (GET /docs). */
const PGLITE_SERIAL = [
  "test/unit/compile-solidity.test.ts",
  "test/unit/worker-pool.test.ts",
  "test/unit/with-io-timeout.test.ts",
  "test/http/compile-event-loop.test.ts",
  "test/http/webhook-delivery.test.ts",
  "test/db/change-feed.test.ts",
  // Rebuilds docs/portal, which GET /docs serves to the HTTP tests.
  "test/browser/docs.test.ts",
];

/** On PostgreSQL, one file at a time: the files with tight time bounds (a cut connection answers 503 within the
 * request bound, /readyz within 2 s; 50 concurrent writes over two instances must each get a pooled connection within
 * its acquire timeout; a retry after a cut commit executes within 2 s of healing) and the timing-sensitive files the
 * PostgreSQL project runs. */
const POSTGRES_SERIAL = [
  "test/system/faults-postgres.test.ts",
  "test/system/multi-instance.test.ts",
  "test/system/claim-release-postgres.test.ts",
  // Through a private PgBouncer: a revoked key refused on the other instance within 1 s, a cut connection within its bound.
  "test/system/pooler.test.ts",
  "test/http/compile-event-loop.test.ts",
  "test/http/webhook-delivery.test.ts",
  "test/db/change-feed.test.ts",
];
/** The other system tests (server processes on free ports, signals, scratch folders; only operations.test.ts builds
 * dist/ and only it reads it), two files at a time: their bounds are seconds wide (a stop within 10 s). */
const POSTGRES_SYSTEM = ["test/system/**/*.test.ts"];

/** HTTP files whose subject sits above the database (a spawned CLI, the MCP layer over operations tested on both
 * databases, rate limits kept in Redis or memory, 501s answered before any query): on PGlite only. On PostgreSQL they
 * ran the same statements the other HTTP files already run there — 29 s of the suite's CPU for no path of their own. */
const DATABASE_AGNOSTIC = [
  "test/http/cli.test.ts",
  "test/http/mcp.test.ts",
  "test/http/rate-limit.test.ts",
  "test/http/not-implemented.test.ts",
];

/** HTTP and db tests, on both databases (but DATABASE_AGNOSTIC). */
const SHARED_FOLDERS = ["test/http/**/*.test.ts", "test/db/**/*.test.ts"];
/** Everything else that needs no PostgreSQL, on PGlite only. */
const REST_FOLDERS = [
  "test/unit/**/*.test.ts",
  "test/contract/**/*.test.ts",
  "test/sdk/**/*.test.ts",
  "test/browser/**/*.test.ts",
  "test/docs/**/*.test.ts",
  "test/security/**/*.test.ts",
];
/** The parallel projects run their files without isolation (isolate: false): the files of one worker share its module
 * graph, so the app, the spec's validators (compiled per operation on first use, server/middleware/openapi-validator.ts)
 * and the response contract are imported and compiled once per worker instead of once per file — test/http and test/db
 * 896 → 336 s on PGlite and 765 → 235 s on PostgreSQL (docs/performance.md). A file must therefore leave no state
 * behind (servers closed, pools ended with an error listener, no module mocks); TEST_ISOLATE=true gives every file a
 * fresh worker again, to tell a leak from a bug. */
const ISOLATE = process.env.TEST_ISOLATE === "true";

/** The Dockerfile's build stage run outside Docker (test/image: a whole `npm ci` and `npm run build`, 2–3 min idle and
 * over 10 min under load) is a CI step of its own, `npm run test:image` after `npm test` in .ci/run: inside `npm test`
 * it alone would spend a fifth of the suite's 15-min budget. Listed only when asked for, so `vitest run` skips nothing. */
const IMAGE_BUILD_PROJECT =
  process.env.COINPLANE_TEST_IMAGE === "true"
    ? [{ extends: true as const, test: { name: "image-build", include: ["test/image/**/*.test.ts"], testTimeout: 1_200_000 } }]
    : [];

const pglite = { TEST_DATABASE_URL: "pglite:memory" };
const postgres = { TEST_DATABASE_URL: postgresUrl };

export default defineConfig({
  test: {
    // Hang guards, not assertions: a loaded machine (two workers, other processes) must not fail a slow but correct
    // test. Assertions about time live in the tests themselves.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Two workers for the parallel group; the serial projects set one.
    maxWorkers: 2,
    // Migrated templates made once per project: a PGlite dump and a PostgreSQL template database.
    globalSetup: ["test/global-setup.ts"],
    reporters: ["default", "./test/slowest-files-reporter.ts"],
    // Files known to run long start first in their project, on a clean clone too (test/long-files-first-sequencer.ts).
    sequence: { sequencer: LongFilesFirstSequencer },
    projects: [
      ...IMAGE_BUILD_PROJECT,
      {
        extends: true,
        test: { name: "pglite", include: SHARED_FOLDERS, exclude: PGLITE_SERIAL, env: pglite, isolate: ISOLATE },
      },
      {
        extends: true,
        test: {
          name: "postgres",
          include: SHARED_FOLDERS,
          exclude: [...POSTGRES_SERIAL, ...DATABASE_AGNOSTIC],
          env: postgres,
          isolate: ISOLATE,
        },
      },
      {
        extends: true,
        test: { name: "pglite-rest", include: REST_FOLDERS, exclude: PGLITE_SERIAL, env: pglite, isolate: ISOLATE },
      },
      {
        // Type-level tests (expectTypeOf, @ts-expect-error): tsc checks them; a guarantee lost fails `npm test`.
        extends: true,
        test: {
          name: "types",
          include: [],
          typecheck: { enabled: true, only: true, include: ["test/types/**/*.test-d.ts"], tsconfig: "./test/types/tsconfig.json" },
        },
      },
      {
        extends: true,
        test: {
          name: "pglite-serial",
          include: PGLITE_SERIAL,
          env: pglite,
          fileParallelism: false,
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          name: "postgres-system",
          include: POSTGRES_SYSTEM,
          exclude: POSTGRES_SERIAL,
          env: postgres,
          maxWorkers: 2,
          sequence: { groupOrder: 2 },
        },
      },
      {
        extends: true,
        test: {
          name: "postgres-serial",
          include: POSTGRES_SERIAL,
          env: postgres,
          fileParallelism: false,
          maxWorkers: 1,
          sequence: { groupOrder: 3 },
        },
      },
    ],
  },
});
