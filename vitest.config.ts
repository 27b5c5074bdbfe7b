import { defineConfig } from "vitest/config";

// Two projects: the whole HTTP suite runs on embedded PGlite and on the machine's PostgreSQL
// (each test file creates and drops its own database there). Unit, contract and security tests run once, on PGlite;
// the system tests (separate server processes, cut connections, signals) run on PostgreSQL only.
const postgresUrl = process.env.TEST_DATABASE_URL || "postgresql://postgres@127.0.0.1:5432/postgres";

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // A migrated PGlite template, made once per run: in-memory test servers start from it instead of running initdb.
    globalSetup: ["test/global-setup.ts"],
    projects: [
      {
        extends: true,
        test: {
          name: "pglite",
          include: [
            "test/unit/**/*.test.ts",
            "test/contract/**/*.test.ts",
            "test/http/**/*.test.ts",
            "test/db/**/*.test.ts",
            "test/sdk/**/*.test.ts",
            "test/browser/**/*.test.ts",
            "test/docs/**/*.test.ts",
            "test/security/**/*.test.ts",
          ],
          env: { TEST_DATABASE_URL: "pglite:memory" },
        },
      },
      {
        // Type-level tests (expectTypeOf, @ts-expect-error): tsc checks them; a guarantee lost fails `npm test`.
        extends: true,
        test: {
          name: "types",
          include: [],
          typecheck: { enabled: true, only: true, include: ["test/types/**/*.test-d.ts"], tsconfig: "./tsconfig.json" },
        },
      },
      {
        extends: true,
        test: {
          name: "postgres",
          // test/system spawns real server processes on PostgreSQL + Redis (multi-instance, faults, shutdown).
          include: ["test/http/**/*.test.ts", "test/db/**/*.test.ts", "test/system/**/*.test.ts"],
          env: { TEST_DATABASE_URL: postgresUrl },
        },
      },
    ],
  },
});
