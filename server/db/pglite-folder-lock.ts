// One process per PGlite folder. PGlite is an embedded, single-process PostgreSQL: two processes writing the same folder
// corrupt it, and PGlite itself takes no lock. The first process writes its pid into `<folder>/coinplane.lock` (created
// exclusively); a second one finds a live pid there and refuses to start. A lock left by a process that died (its pid no
// longer runs) is taken over.
import { closeSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import path from "node:path";

export class PgliteFolderInUse extends Error {
  readonly folder: string;
  readonly pid: number;

  constructor(folder: string, pid: number) {
    super(
      `the PGlite folder ${folder} is in use by another Coinplane process (pid ${pid}): stop it, or set DATABASE_URL=pglite:<another folder>`,
    );
    this.folder = folder;
    this.pid = pid;
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the pid runs under another user — still running.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Takes the folder's lock; returns its release. Throws PgliteFolderInUse when a live process holds it. */
export function lockPgliteFolder(folder: string): () => void {
  const file = path.join(folder, "coinplane.lock");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, "wx", 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        process.off("exit", release);
        rmSync(file, { force: true });
      };
      // Removed on any exit (process.exit included), so a clean stop never leaves a lock behind.
      process.on("exit", release);
      return release;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const holder = Number.parseInt(readFileSync(file, "utf8"), 10);
      if (Number.isInteger(holder) && holder !== process.pid && isRunning(holder)) throw new PgliteFolderInUse(folder, holder);
      rmSync(file, { force: true }); // stale: its process is gone
    }
  }
  throw new Error(`could not take the lock ${file}`);
}
