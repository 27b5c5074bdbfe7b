// The migrated PGlite template `npm start` makes beside its own start (scripts/start-pglite-template.ts): the server's
// wait for it (server/db/pglite-template.ts awaitPgliteTemplate). A writer is any process with a
// `<name>.building-<pid>` file: here a small node process stands in for the child, which costs seconds of initdb; the
// quick-start test (test/docs/readme-quick-start.test.ts) covers the real child on a fresh clone.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readMigrations } from "../../server/db/migrate.ts";
import { awaitPgliteTemplate, pgliteTemplateName, templateInProgress } from "../../server/db/pglite-template.ts";

let dir: string;
let file: string;
let migrations: Awaited<ReturnType<typeof readMigrations>>;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "coinplane-template-beside-"));
  migrations = await readMigrations();
  file = path.join(dir, pgliteTemplateName(migrations));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A stand-in writer: after `ms`, renames its in-progress file into place (or, `fail`, removes it), then exits. */
function writer(ms: number, fail: boolean): { child: ChildProcess; exited: Promise<void> } {
  const script = `
    const fs = require("node:fs");
    const scratch = ${JSON.stringify(file)} + ".building-" + process.pid;
    setTimeout(() => {
      if (${fail}) fs.rmSync(scratch, { force: true });
      else { fs.writeFileSync(scratch, "dump"); fs.renameSync(scratch, ${JSON.stringify(file)}); }
    }, ${ms});`;
  const child = spawn(process.execPath, ["-e", script], { stdio: "ignore" });
  // As scripts/start-pglite-template.ts does: the in-progress file named by the parent, right after the spawn.
  writeFileSync(templateInProgress(file, child.pid as number), "");
  return { child, exited: new Promise((resolve) => child.once("exit", () => resolve())) };
}

describe("a new folder's template made beside the start", () => {
  it("without a template or a writer: initdb, and the line says nothing of a template", async () => {
    expect(await awaitPgliteTemplate(migrations, dir)).toEqual({ template: undefined, note: undefined });
  });

  it("a writer still running is waited for, and its template is loaded", async () => {
    const { exited } = writer(400, false);
    const found = await awaitPgliteTemplate(migrations, dir, 20);
    expect(await found.template?.text()).toBe("dump");
    expect(found.note).toBe("new, from the migrated template `npm start` makes");
    await exited;
    rmSync(file);
  });

  it("a writer that ends without the template: initdb, and the line says so", async () => {
    const { exited } = writer(200, true);
    const found = await awaitPgliteTemplate(migrations, dir, 20);
    expect(found.template).toBeUndefined();
    expect(found.note).toMatch(/^new, by initdb \(the migrated template being made beside this start did not come/);
    await exited;
  });

  it("a writer killed before its rename (a stopped start) leaves its file: initdb, not a wait forever", async () => {
    const { child, exited } = writer(60_000, false);
    child.kill("SIGKILL");
    await exited;
    const found = await awaitPgliteTemplate(migrations, dir, 20);
    expect(found.template).toBeUndefined();
    expect(found.note).toMatch(/^new, by initdb/);
    rmSync(templateInProgress(file, child.pid as number));
  });
});
