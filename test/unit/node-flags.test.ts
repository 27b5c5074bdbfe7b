// scripts/node-flags.ts: the system tests and the benchmarks run the source with the node flags package.json's scripts
// give, in this tree and in an older checkout; a script that stops ending in `exec node … <entry>` is refused.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { nodeFlagsOf } from "../../scripts/node-flags.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const checkouts: string[] = [];

/** A checkout holding only a package.json with `scripts`. */
function checkout(scripts: Record<string, string>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "node-flags-"));
  checkouts.push(dir);
  writeFileSync(path.join(dir, "package.json"), JSON.stringify({ scripts }));
  return dir;
}

afterEach(() => {
  for (const dir of checkouts.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("nodeFlagsOf", () => {
  it("reads this tree's start and start:cluster as type stripping", () => {
    expect(nodeFlagsOf("start", "server/main.ts", ROOT)).toEqual(["--experimental-strip-types"]);
    expect(nodeFlagsOf("start:cluster", "scripts/start-cluster.ts", ROOT)).toEqual(["--experimental-strip-types"]);
  });

  it("reads an older checkout's loader, after the script's first commands", () => {
    const older = checkout({ start: "tsx scripts/ensure-start-builds.ts && exec node --import tsx server/main.ts" });
    expect(nodeFlagsOf("start", "server/main.ts", older)).toEqual(["--import", "tsx"]);
    expect(nodeFlagsOf("start", "server/main.ts", checkout({ start: "exec node server/main.ts" }))).toEqual([]);
  });

  it("refuses a script that does not end in exec node … <entry>", () => {
    const other = checkout({ start: "exec node --experimental-strip-types server/other.ts", build: "tsx scripts/build.ts" });
    expect(() => nodeFlagsOf("start", "server/main.ts", other)).toThrow(/start script does not end in "exec node … server\/main.ts"/);
    expect(() => nodeFlagsOf("build", "scripts/build.ts", other)).toThrow(/build script/);
    expect(() => nodeFlagsOf("missing", "server/main.ts", other)).toThrow(/missing script/);
  });
});
