// server/config.ts alone reads the environment: every other server module gets its settings passed in (Config), so tests
// configure the server by value and a setting cannot be read in two places with two defaults.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const SERVER = path.resolve(import.meta.dirname, "../../server");
// Generated code (the Prisma client) is not ours to shape; config.ts is the one reader.
const EXEMPT = [/^generated\//, /^config\.ts$/];
// `process.env`, `process["env"]`, and `env` taken from node:process.
const READS_ENV = /process\s*(\.|\?\.)\s*env\b|process\s*\[\s*["'`]env["'`]\s*\]|from\s+["'](node:)?process["']/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((file) => /\.(ts|js|mjs|cjs)$/.test(file))
    .map((file) => file.split(path.sep).join("/"));
}

describe("process.env is read only in server/config.ts", () => {
  it("no other server module mentions it", () => {
    const files = sourceFiles(SERVER);
    expect(files).toContain("main.ts");
    const offenders = files
      .filter((file) => !EXEMPT.some((pattern) => pattern.test(file)))
      .filter((file) => READS_ENV.test(readFileSync(path.join(SERVER, file), "utf8")));
    expect(offenders).toEqual([]);
  });

  it("the check sees the forms it forbids", () => {
    for (const line of ["process.env.PORT", "process?.env", 'process["env"]', 'import { env } from "node:process";']) {
      expect(READS_ENV.test(line), line).toBe(true);
    }
    expect(READS_ENV.test("process.kill(process.pid)")).toBe(false);
  });
});
