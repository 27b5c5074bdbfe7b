// The flags a package.json script gives node before its entry file, read from the checkout's package.json: the system
// tests and the benchmarks run the TypeScript source exactly as `npm start` (and `npm run start:cluster`) run it, in
// this tree or in an older checkout an A/B compares against (tsx's loader before issue 39, Node's type stripping since).
import { readFileSync } from "node:fs";
import path from "node:path";

/** `npm run <name>`'s node flags before `entry` in the checkout at `root`; throws when the script does not end in
 * `exec node … <entry>`, so a changed script is noticed at once rather than run some other way. */
export function nodeFlagsOf(name: string, entry: string, root: string): string[] {
  const scripts = (JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { scripts?: Record<string, string> }).scripts;
  const match = / exec node ((?:\S+ )*)(\S+)$/.exec(` ${scripts?.[name] ?? ""}`);
  if (!match || match[2] !== entry) throw new Error(`${root}/package.json's ${name} script does not end in "exec node … ${entry}"`);
  return (match[1] ?? "").split(" ").filter(Boolean);
}
