// `npm run check:compat` (CI runs it): fails when the current bundle (openapi/generated/openapi.json) breaks a client of
// the last released spec (openapi/released/openapi.json), or declares a deprecation the policy does not allow
// (docs/compatibility.md). `--released FILE` / `--current FILE` compare other files (the tests use them).
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { compareSpecs } from "./compat.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const { values } = parseArgs({
  options: {
    released: { type: "string", default: path.join(root, "openapi/released/openapi.json") },
    current: { type: "string", default: path.join(root, "openapi/generated/openapi.json") },
  },
});
const read = (file: string) => JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
const released = read(values.released as string);
const current = read(values.current as string);
const version = (spec: Record<string, unknown>) => String((spec.info as { version?: string } | undefined)?.version);
const report = compareSpecs(released, current);

for (const change of report.sunsetRemovals) console.log(`allowed (sunset passed): ${change.where}: ${change.description}`);
// One line per operation: a correction's differences are many and alike (scripts/compat-corrections.ts says why).
const corrected = new Map<string, number>();
for (const change of report.corrections) corrected.set(change.where, (corrected.get(change.where) ?? 0) + 1);
for (const [where, count] of corrected) console.log(`allowed (declared correction): ${where}: ${count} difference(s)`);
for (const error of report.deprecationErrors) console.error(`deprecation: ${error}`);
for (const change of report.breaking) console.error(`breaking: ${change.where}: ${change.description}`);
if (report.breaking.length > 0 || report.deprecationErrors.length > 0) {
  console.error(
    `\n${report.breaking.length} breaking change(s) against the released spec ${version(released)} and ${report.deprecationErrors.length} deprecation error(s).` +
      "\nMake the change additive, or deprecate first and remove after the sunset (docs/compatibility.md).",
  );
  process.exitCode = 1;
} else {
  console.log(`compatible with the released spec ${version(released)} (current ${version(current)})`);
}
