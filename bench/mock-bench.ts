// `npm run bench:mock`: throughput of the partner mock server (`npm run mock`) next to Prism's mock server
// (`prism mock openapi/generated/openapi.yaml`) on the same spec, in one run, with the same requests and load
// (autocannon, loopback only, bounded duration). Writes the table to bench/mock-results.md. Not part of `npm test`.
// Env: BENCH_SECONDS (default 10), BENCH_CONNECTIONS (default 32).
import { type ChildProcess, spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { mockApiKeys } from "../sdk/src/mock/api-keys.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
// The mock answers 401 to keys it does not know: its documented sandbox test key (Prism accepts any bearer).
const KEY = mockApiKeys.sandbox;
const headers = { authorization: `Bearer ${KEY}`, "content-type": "application/json" };

// The same three requests, cycled: a v1 list, a v1 write with a body, a v2 read by id.
const requests = [
  { method: "GET" as const, path: "/api/v1/wallets", headers },
  {
    method: "POST" as const,
    path: "/api/v1/payments",
    headers,
    body: JSON.stringify({ amount: "125.50", stablecoin: "USDC", chain: "base", toAddress: "0x52908400098527886E0F7030069857D2E4169EE7" }),
  },
  { method: "GET" as const, path: "/api/v2/agent/cards/card_3Vb7Nx1Qk9Tz5Hm2Lw8Rd", headers },
];

interface Result {
  name: string;
  command: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  total: number;
  non2xx: number;
  errors: number;
}

async function waitForPort(url: string, child: ChildProcess, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${url}: server exited with ${child.exitCode}`);
    try {
      await fetch(`${url}/api/v1/wallets`, { headers });
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  throw new Error(`${url} did not start within ${timeoutMs} ms`);
}

async function measure(name: string, command: string, args: string[], port: number, env: Record<string, string> = {}): Promise<Result> {
  const child = spawn(command, args, { cwd: root, env: { ...process.env, ...env }, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr?.on("data", (d: Buffer) => {
    stderr += d.toString();
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForPort(url, child);
    // Warm-up (JIT, caches), then the measured run.
    await autocannon({ url, connections, duration: 2, requests });
    const r = await autocannon({ url, connections, duration: seconds, requests });
    return {
      name,
      command: `${path.basename(command)} ${args.join(" ")}`.replace(root, "."),
      requestsPerSecond: r.requests.average,
      p50: r.latency.p50,
      p99: r.latency.p99,
      total: r.requests.total,
      non2xx: r.non2xx,
      errors: r.errors,
    };
  } catch (err) {
    throw new Error(`${name}: ${(err as Error).message}\n${stderr.slice(-2000)}`);
  } finally {
    child.kill("SIGTERM");
    await new Promise((r) => (child.exitCode !== null ? r(undefined) : child.once("exit", r)));
  }
}

const bin = (name: string) => path.join(root, "node_modules", ".bin", name);
const results = [
  await measure("Coinplane partner mock (npm run mock)", bin("tsx"), ["sdk/src/mock/cli.ts"], 4510, { PORT: "4510" }),
  await measure(
    "Prism 5 mock",
    bin("prism"),
    ["mock", "openapi/generated/openapi.yaml", "-p", "4511", "-h", "127.0.0.1", "--errors", "false"],
    4511,
  ),
];
const [ours, prism] = results as [Result, Result];
const ratio = ours.requestsPerSecond / prism.requestsPerSecond;
const fmt = (n: number) => n.toLocaleString("en-US", { maximumFractionDigits: 0 });
const table = [
  "| Server | Requests/s (avg) | Latency p50 (ms) | Latency p99 (ms) | Requests | Non-2xx | Errors |",
  "|---|---:|---:|---:|---:|---:|---:|",
  ...results.map(
    (r) => `| ${r.name} | ${fmt(r.requestsPerSecond)} | ${r.p50} | ${r.p99} | ${fmt(r.total)} | ${fmt(r.non2xx)} | ${r.errors} |`,
  ),
].join("\n");
const markdown = `# Partner mock vs Prism (\`npm run bench:mock\`)

Same spec (openapi/generated/openapi.yaml), same requests cycled (GET /api/v1/wallets, POST /api/v1/payments with a body,
GET /api/v2/agent/cards/{cardId}), autocannon with ${connections} connections for ${seconds} s after a 2 s warm-up, each
server alone on the machine (${os.cpus().length} cores, ${os.cpus()[0]?.model ?? "unknown CPU"}, Node ${process.version}),
load generator on the same machine over loopback.

${table}

**The partner mock serves ${ratio.toFixed(1)}× Prism's throughput** in this run (measured ${new Date().toISOString()}).

Commands: \`${ours.command}\` and \`${prism.command}\`.
`;
writeFileSync(path.join(root, "bench", "mock-results.md"), markdown);
console.log(markdown);
