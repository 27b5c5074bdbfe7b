// Request paths run on the typed query layer (Kysely, server/db/kysely.ts); the Prisma client stays on operator paths
// (admin API, scripts, migrations). This fails when a Prisma call or type creeps back into a request path.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const REQUEST_PATH_DIRS = [
  "server/routes",
  "server/domain",
  "server/middleware",
  "server/http",
  "server/providers",
  "server/scheduler",
  "server/chain",
  "server/idempotency",
];
/** Operator paths, where the Prisma client may stay (README "Architecture"). */
const OPERATOR_PATHS = ["server/routes/admin-handlers.ts", "server/domain/admin/"];
const PRISMA_USE = [/generated\/prisma/, /\bprisma\./, /\$transaction/, /\bPrisma\./, /\bdb\.prisma\b/];

function filesUnder(dir: string): string[] {
  return readdirSync(path.join(root, dir)).flatMap((name) => {
    const relative = `${dir}/${name}`;
    return statSync(path.join(root, relative)).isDirectory() ? filesUnder(relative) : relative.endsWith(".ts") ? [relative] : [];
  });
}

describe("request paths use the typed query layer, not the Prisma client", () => {
  const files = REQUEST_PATH_DIRS.flatMap(filesUnder).filter((file) => !OPERATOR_PATHS.some((op) => file.startsWith(op)));

  it("covers the request-path folders", () => {
    expect(files.length).toBeGreaterThan(100);
  });

  it.each(files)("%s", (file) => {
    const source = readFileSync(path.join(root, file), "utf8");
    const offending = source.split("\n").filter((line) => PRISMA_USE.some((pattern) => pattern.test(line)));
    expect(offending).toEqual([]);
  });
});
