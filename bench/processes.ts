// Child processes for the benchmark: start a server, wait until it answers, read its memory, stop it.
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { nodeFlagsOf } from "../scripts/node-flags.ts";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export interface Started {
  child: ChildProcess;
  url: string;
  stderr: () => string;
}

export async function startProcess(
  script: string,
  port: number,
  env: Record<string, string> = {},
  probe = "/",
  cwd = root,
): Promise<Started> {
  // `node` itself runs the script (no CLI wrapper that forks), so RSS and --cpu-prof (BENCH_NODE_FLAGS) describe the
  // server alone.
  const flags = process.env.BENCH_NODE_FLAGS ? process.env.BENCH_NODE_FLAGS.split(" ") : [];
  const loader = sourceFlags(script, cwd);
  const child = spawn(process.execPath, [...flags, ...loader, script], {
    cwd,
    env: { ...process.env, ...env, PORT: String(port) },
    // The server logs one line per request at info, as in production; stdout goes to /dev/null.
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-4000);
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${script} exited with ${child.exitCode}\n${stderr}`);
    try {
      const res = await fetch(`${url}${probe}`);
      if (res.status < 500) return { child, url, stderr: () => stderr };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  child.kill("SIGKILL");
  throw new Error(`${script} did not answer within 90 s\n${stderr}`);
}

/**
 * How `script` runs in the checkout at `cwd`: compiled JavaScript (the build) as it is; TypeScript the way that
 * checkout's `npm start` runs it — Node's own type stripping (`--experimental-strip-types`) since issue 39's seventh
 * session, tsx's loader before it. So an A/B against an older checkout (npm run bench:ab) compares each as it starts.
 */
export function sourceFlags(script: string, cwd = root): string[] {
  return script.endsWith(".js") ? [] : nodeFlagsOf("start", "server/main.ts", cwd);
}

/** Resident set size of the process, in MiB (Linux /proc). */
export function rssMiB(pid: number | undefined): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) / 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  child.kill("SIGTERM");
  const exited = new Promise((r) => child.once("exit", r));
  const timeout = new Promise((r) => setTimeout(r, 30_000));
  await Promise.race([exited, timeout]);
  if (child.exitCode === null) child.kill("SIGKILL");
}

/** A process's command name and the CPU time (user + system) it has used so far, in milliseconds (Linux /proc; clock
 * ticks of 10 ms); undefined when it is gone. */
export function processCpu(pid: number | string | undefined): { command: string; cpuMs: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name (which may contain spaces) start after the last ')'; utime and stime are 14 and 15.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return { command: stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")), cpuMs: (Number(fields[11]) + Number(fields[12])) * 10 };
  } catch {
    return undefined;
  }
}

/** CPU time (user + system) the process has used so far, in milliseconds; NaN when it is gone. */
export function cpuMs(pid: number | undefined): number {
  return processCpu(pid)?.cpuMs ?? Number.NaN;
}
