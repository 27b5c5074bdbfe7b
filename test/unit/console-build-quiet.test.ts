// A clean console build prints nothing at `--logLevel warn` (what `npm start` and `npm run build` run): React Router's
// "use client" directives in node_modules are the one warning the console's Vite config silences, and only that one.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { isDependencyUseClientWarning } from "../../console/vite.config.ts";
import { ROOT } from "../helpers/server-process.ts";

describe("the console build", () => {
  it("prints no warning", async () => {
    const outDir = mkdtempSync(path.join(os.tmpdir(), "coinplane-console-build-"));
    try {
      const { stdout, stderr } = await promisify(execFile)(
        process.execPath,
        [path.join(ROOT, "node_modules/vite/bin/vite.js"), "build", "--logLevel", "warn", "--outDir", outDir, "--emptyOutDir"],
        { cwd: path.join(ROOT, "console"), env: { ...process.env, NODE_ENV: "production" }, timeout: 120_000 },
      );
      expect(`${stdout}${stderr}`).toBe("");
    } finally {
      rmSync(outDir, { recursive: true, force: true });
    }
  });

  it('silences only the dependencies\' "use client" directive warning', () => {
    const directive = (id: string, directiveName = "use client") => ({
      code: "MODULE_LEVEL_DIRECTIVE",
      message: `The semantics of the module level directive "${directiveName}" in "${id}" may not be preserved when bundling.`,
      id,
    });
    expect(isDependencyUseClientWarning(directive("/app/node_modules/react-router/dist/development/index.mjs"))).toBe(true);
    expect(isDependencyUseClientWarning(directive("/app/console/src/main.tsx"))).toBe(false);
    expect(isDependencyUseClientWarning(directive("/app/node_modules/x/index.js", "use server"))).toBe(false);
    expect(
      isDependencyUseClientWarning({ code: "UNRESOLVED_IMPORT", message: '"use client" in node_modules/x', id: "/app/node_modules/x" }),
    ).toBe(false);
  });
});
