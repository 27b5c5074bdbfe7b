// A fresh clone of this repository as a newcomer gets it (`git clone`: committed files only, no console/dist, no
// docs/portal, no .data), for the tests that follow the README from the start. `npm ci` is the one step replaced: the
// clone links this checkout's installed node_modules (the same lock file), which saves minutes per run.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ROOT } from "./server-process.ts";

export interface FreshClone {
  dir: string;
  remove(): void;
}

/** Clones the checkout's HEAD (what is committed) into a new temporary folder and links its node_modules folders. */
export function freshClone(): FreshClone {
  const parent = mkdtempSync(path.join(tmpdir(), "coinplane-clone-"));
  const dir = path.join(parent, "coinplane");
  execFileSync("git", ["clone", "--quiet", ROOT, dir], { stdio: ["ignore", "ignore", "pipe"], timeout: 120_000 });
  for (const folder of ["", "sdk", "console"]) {
    const modules = path.join(ROOT, folder, "node_modules");
    if (existsSync(modules)) symlinkSync(modules, path.join(dir, folder, "node_modules"), "dir");
  }
  return { dir, remove: () => rmSync(parent, { recursive: true, force: true }) };
}
