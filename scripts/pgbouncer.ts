// A private PgBouncer in transaction mode in front of a PostgreSQL, for the pooler tests (test/system/pooler.test.ts)
// and benches (bench/scale-bench.ts): its own folder, a free port, trust authentication (the machine's PostgreSQL
// trusts 127.0.0.1), `pool_mode = transaction` — what PgBouncer 1.18 (Debian's) does in front of many instances.
// `scripts/ensure-pgbouncer.sh` installs the binary when missing.
import { type ChildProcess, spawn } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createConnection, createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

export const PGBOUNCER_BIN = process.env.PGBOUNCER_BIN || "/usr/sbin/pgbouncer";

export interface PgBouncer {
  port: number;
  /** `target` (a postgresql:// URL) with host and port replaced by the pooler's. */
  url(target: string): string;
  output(): string;
  stop(): Promise<void>;
}

export interface PgBouncerOptions {
  /** The PostgreSQL it pools (default 127.0.0.1:5432). */
  upstreamHost?: string;
  upstreamPort?: number;
  /** Server connections per database/user pair (default 20). */
  poolSize?: number;
  /** Users the auth file lists (trust still needs them listed). */
  users?: string[];
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer().listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: "127.0.0.1", port });
    socket.setTimeout(500);
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
    socket.once("timeout", () => {
      socket.destroy();
      resolve(false);
    });
  });
}

export async function startPgBouncer(options: PgBouncerOptions = {}): Promise<PgBouncer> {
  const dir = mkdtempSync(path.join(tmpdir(), "coinplane-pgbouncer-"));
  // PgBouncer refuses to run as root: it is started with -u postgres then, which must read its folder.
  chmodSync(dir, 0o755);
  const users = options.users ?? ["postgres", "root"];
  writeFileSync(path.join(dir, "users.txt"), `${users.map((u) => `"${u}" ""`).join("\n")}\n`, { mode: 0o644 });
  for (let attempt = 0; attempt < 5; attempt++) {
    const port = await freePort();
    const ini = [
      "[databases]",
      `* = host=${options.upstreamHost ?? "127.0.0.1"} port=${options.upstreamPort ?? 5432}`,
      "[pgbouncer]",
      "listen_addr = 127.0.0.1",
      `listen_port = ${port}`,
      "unix_socket_dir =",
      "auth_type = trust",
      `auth_file = ${path.join(dir, "users.txt")}`,
      "pool_mode = transaction",
      `default_pool_size = ${options.poolSize ?? 20}`,
      "max_client_conn = 1000",
      // What the pooler bounds itself (the instances' statement_timeout travels in each BEGIN, SET LOCAL).
      "query_wait_timeout = 10",
      "server_connect_timeout = 5",
      // A cut upstream (the fault tests) must not leave the pool waiting long before it tries again.
      "server_login_retry = 1",
      "log_connections = 0",
      "log_disconnections = 0",
      "",
    ].join("\n");
    const iniPath = path.join(dir, "pgbouncer.ini");
    writeFileSync(iniPath, ini, { mode: 0o644 });
    const args = process.getuid?.() === 0 ? ["-u", "postgres", iniPath] : [iniPath];
    const child: ChildProcess = spawn(PGBOUNCER_BIN, args, { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout?.on("data", (d: Buffer) => {
      output += d.toString();
    });
    child.stderr?.on("data", (d: Buffer) => {
      output += d.toString();
    });
    let exited = false;
    const gone = new Promise<void>((resolve) =>
      child.once("exit", () => {
        exited = true;
        resolve();
      }),
    );
    const deadline = Date.now() + 10_000;
    while (!exited && Date.now() < deadline && !(await accepts(port))) await new Promise((r) => setTimeout(r, 50));
    if (exited) {
      if (/Address already in use/i.test(output)) continue;
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`pgbouncer exited at start:\n${output}`);
    }
    return {
      port,
      url(target: string) {
        const u = new URL(target);
        u.hostname = "127.0.0.1";
        u.port = String(port);
        return u.toString();
      },
      output: () => output,
      async stop() {
        if (!exited) child.kill("SIGTERM");
        await Promise.race([gone, new Promise((r) => setTimeout(r, 5_000))]);
        if (!exited) child.kill("SIGKILL");
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  rmSync(dir, { recursive: true, force: true });
  throw new Error("pgbouncer: no free port after 5 attempts");
}
