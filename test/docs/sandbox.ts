// A fresh sandbox as a newcomer meets it, for the docs tests: the real server process (what `npm start` runs) on a new
// PGlite folder, and a bash that runs documented commands verbatim in the repository folder.
//
// The commands are never edited; only their environment is set:
// - COINPLANE_URL and ADMIN_TOKEN point the CLI and the setup step at this server (as `npm start`'s .data/admin-token
//   would);
// - curl reads a config file of the test's own ($CURL_HOME/.curlrc): `write-out` appends each response's status on a
//   line of its own, and `connect-to` sends what the README addresses as localhost:8080 to this server's port.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ADMIN_TOKEN, ROOT, SCHEDULER_SECRET, type ServerProcess, startServerProcess } from "../helpers/server-process.ts";

export { ROOT, SCHEDULER_SECRET };

const STATUS_LINE = /^@@status=(\d{3})$/gm;

export interface ShellResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** The HTTP status of each curl call, in order (000 when none arrived). */
  statuses: number[];
}

export interface Sandbox {
  url: string;
  server: ServerProcess;
  /** Runs a bash script in the repository folder with the sandbox's environment (plus `env`). */
  bash(script: string, env?: Record<string, string>): Promise<ShellResult>;
  close(): Promise<void>;
}

export async function startSandbox(): Promise<Sandbox> {
  const scratch = mkdtempSync(path.join(tmpdir(), "coinplane-docs-"));
  // SCHEDULER_SECRET (set by startServerProcess) is the one setting beyond `npm start`'s: the corridor dispatch sample
  // is an operator call that needs it.
  const server = await startServerProcess({ databaseUrl: `pglite:${path.join(scratch, "pglite")}` });
  const curlHome = path.join(scratch, "curl");
  mkdirSync(curlHome);
  writeFileSync(
    path.join(curlHome, ".curlrc"),
    [`write-out = "\\n@@status=%{http_code}\\n"`, `connect-to = "localhost:8080:127.0.0.1:${server.port}"`].join("\n"),
  );
  const bash = (script: string, env: Record<string, string> = {}) =>
    new Promise<ShellResult>((resolve) => {
      const child = spawn("bash", ["-c", script], {
        cwd: ROOT,
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          CURL_HOME: curlHome,
          COINPLANE_URL: server.url,
          ADMIN_TOKEN,
          ...env,
        },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (d: Buffer) => {
        stdout += d.toString();
      });
      child.stderr.on("data", (d: Buffer) => {
        stderr += d.toString();
      });
      child.on("close", (code) => resolve({ code, stdout, stderr, statuses: [...stdout.matchAll(STATUS_LINE)].map((m) => Number(m[1])) }));
    });
  return {
    url: server.url,
    server,
    bash,
    async close() {
      await server.stop();
      rmSync(scratch, { recursive: true, force: true });
    },
  };
}

/** The fenced ```bash blocks of a markdown text, in order. */
export function bashBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```bash\n([\s\S]*?)^```$/gm)].map((m) => m[1] as string);
}
