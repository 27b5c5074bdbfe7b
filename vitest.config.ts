import { defineConfig } from "vitest/config";

// Two projects: the whole HTTP suite runs on embedded PGlite and on the machine's PostgreSQL
// (each test file creates and drops its own database there). Unit and contract tests run once.
const postgresUrl = process.env.TEST_DATABASE_URL || "postgresql://postgres@127.0.0.1:5432/postgres";

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
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
          ],
          env: { TEST_DATABASE_URL: "pglite:memory" },
        },
      },
      {
        extends: true,
        test: {
          name: "postgres",
          include: ["test/http/**/*.test.ts", "test/db/**/*.test.ts"],
          env: { TEST_DATABASE_URL: postgresUrl },
        },
      },
    ],
  },
});
