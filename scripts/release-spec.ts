// `npm run release:spec`, a release step (docs/compatibility.md): records the current bundle as the last released spec
// (openapi/released/openapi.json), which `npm run check:compat` compares every later change with. Refuses when the
// contract changed but `info.version` did not: a release names its version.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { isDeepStrictEqual } from "node:util";
import { comparable } from "./compat.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const releasedFile = path.join(root, "openapi/released/openapi.json");
const current = comparable(JSON.parse(readFileSync(path.join(root, "openapi/generated/openapi.json"), "utf8")));
const version = (spec: Record<string, unknown>) => String((spec.info as { version?: string }).version);

if (existsSync(releasedFile)) {
  const released = comparable(JSON.parse(readFileSync(releasedFile, "utf8")));
  if (isDeepStrictEqual(released, current)) {
    console.log(`openapi/released/openapi.json is already the current spec (${version(current)})`);
    process.exit(0);
  }
  if (version(released) === version(current)) {
    console.error(
      `The spec changed since release ${version(released)}: bump info.version in openapi/openapi.yaml, run npm run generate, then release.`,
    );
    process.exit(1);
  }
}
const notice = `The spec as released in version ${version(current)}, written by \`npm run release:spec\`. Do not edit by hand: \`npm run check:compat\` compares the current spec with it.`;
writeFileSync(releasedFile, `${JSON.stringify({ "x-released": notice, ...current }, null, 2)}\n`);
console.log(`released: openapi/released/openapi.json is version ${version(current)}`);
