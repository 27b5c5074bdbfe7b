// The upgrade rule (README "Operations"): a release's migrations are additive, so instances of the previous release keep
// working on the new schema while a rolling upgrade replaces them. Tested by running the previous release's own request
// tests — its server code, its tests, its generated clients — on databases migrated with this tree's migrations.
//
// "The previous release" is the commit that last recorded openapi/released/openapi.json (`npm run release:spec`, the
// release step). Its tree is exported with `git archive`, its prisma/migrations replaced by this tree's, and its vitest
// run on PostgreSQL (each file migrates its own database, with the new migrations): a test of the old release that
// fails here means a migration since the release broke the old code (a drop, a rename, a new NOT NULL without default).
import { execFileSync, spawn } from "node:child_process";
import { cpSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { stripVTControlCharacters } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT } from "../helpers/server-process.ts";

/** The previous release's request tests run here: one file per surface and write shape (all of test/http would add
 * ≈10 minutes to every CI run; UPGRADE_SUITE=all runs them all before a release). */
const REQUEST_TESTS = [
  "test/http/v1-wallets.test.ts",
  "test/http/v1-payments.test.ts",
  "test/http/bank-transfers.test.ts",
  "test/http/cards.test.ts",
  "test/http/custody.test.ts",
  "test/http/webhook-endpoints.test.ts",
  "test/http/admin.test.ts",
  "test/http/metrics.test.ts",
];

const git = (...args: string[]) => execFileSync("git", args, { cwd: ROOT, encoding: "utf8", maxBuffer: 256 * 1024 * 1024 }).trim();
const scratch = mkdtempSync(path.join(tmpdir(), "coinplane-previous-release-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("rolling upgrade: the previous release on the new schema", () => {
  it("passes its own request tests against databases migrated with this tree's migrations", async () => {
    const release = git("log", "-1", "--format=%H", "--", "openapi/released/openapi.json");
    expect(release).toMatch(/^[0-9a-f]{40}$/);
    const version = (JSON.parse(git("show", `${release}:openapi/released/openapi.json`)) as { info: { version: string } }).info.version;
    const tree = path.join(scratch, "release");
    execFileSync("bash", ["-c", `mkdir -p "${tree}" && git archive "${release}" | tar -x -C "${tree}"`], { cwd: ROOT });
    rmSync(path.join(tree, "prisma/migrations"), { recursive: true });
    cpSync(path.join(ROOT, "prisma/migrations"), path.join(tree, "prisma/migrations"), { recursive: true });
    // Its dependencies are this tree's installation (a release's lockfile pins the same or older ones).
    symlinkSync(path.join(ROOT, "node_modules"), path.join(tree, "node_modules"));

    const files = process.env.UPGRADE_SUITE === "all" ? ["test/http"] : REQUEST_TESTS;
    // --no-isolate: its files share one module graph, so the release's app and validators load once rather than once
    // per file (the release predates our isolate: false); 128 → 84 s of CPU here, same assertions.
    const vitestArgs = ["run", "--project", "postgres", "--no-isolate", ...files];
    const run = spawn(process.execPath, [path.join(ROOT, "node_modules/vitest/vitest.mjs"), ...vitestArgs], {
      cwd: tree,
      env: { ...process.env, CI: "true", NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    run.stdout.on("data", (d: Buffer) => {
      output += d.toString();
    });
    run.stderr.on("data", (d: Buffer) => {
      output += d.toString();
    });
    const code = await new Promise<number | null>((resolve) => run.once("exit", resolve));
    expect(code, `release ${version} (${release.slice(0, 8)}) on the new schema:\n${output.slice(-4000)}`).toBe(0);
    expect(stripVTControlCharacters(output)).toMatch(/Test Files {2}\d+ passed \(\d+\)/);
  }, 900_000);
});
