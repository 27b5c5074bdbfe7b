// Runs the project's dependency-cruiser rules over a throwaway server/ tree: one module per path named in `imports`, each
// importing the modules it is paired with. The layer tests (test/unit/dependency-rules.test.ts, layer-map.test.ts) use it
// to see a rule fail, which the real tree cannot show.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "../..");
const DEPCRUISE = path.join(ROOT, "node_modules/.bin/depcruise");

export type Violation = { from: string; to: string; rule: { name: string }; cycle?: Array<{ name: string }> };

/** The violations of `[importing module, imported module]` pairs (paths under server/), in a tree removed afterwards. */
export function cruiseImports(imports: ReadonlyArray<readonly [string, string]>): Violation[] {
  const dir = mkdtempSync(path.join(tmpdir(), "cruise-"));
  try {
    const targets = new Map<string, string[]>();
    for (const [from, to] of imports) {
      targets.set(from, [...(targets.get(from) ?? []), to]);
      if (!targets.has(to)) targets.set(to, []);
    }
    for (const [file, tos] of targets) {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      const lines = tos.map((to, i) => {
        const spec = path.relative(path.dirname(file), to);
        return `import { x as x${i} } from "${spec.startsWith(".") ? spec : `./${spec}`}";\nexport const y${i} = x${i};`;
      });
      writeFileSync(path.join(dir, file), `${lines.join("\n")}\nexport const x = 1;\n`);
    }
    writeFileSync(
      path.join(dir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: { module: "NodeNext", moduleResolution: "NodeNext", allowImportingTsExtensions: true, noEmit: true },
      }),
    );
    let output: string;
    try {
      output = execFileSync(DEPCRUISE, ["server", "--config", path.join(ROOT, ".dependency-cruiser.cjs"), "--output-type", "json"], {
        cwd: dir,
        encoding: "utf8",
      });
    } catch (error) {
      // The exit code is the number of errors; the JSON report is still on stdout.
      output = (error as { stdout: string }).stdout;
    }
    return JSON.parse(output).summary.violations;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
