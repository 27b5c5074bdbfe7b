// `npm run bench:async`: how many promises (and timers, ticks, file writes) the server creates per request, for each
// benchmark scenario on PostgreSQL. Unlike req/s and CPU time on this shared 2-core machine, these counts do not move
// with the machine's load: the same tree gives the same figures run after run, so a change to the request path's
// asynchronous steps shows as an exact difference. Each promise is an allocation, a resolution and a microtask (V8's
// `runMicrotasks` in the profile, docs/performance.md). The database floor (bench/database-floor.ts) is counted
// beside them. `npm run bench:async -- <checkout>` counts that checkout too, scenario by scenario, in the same run.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon, { type Request } from "autocannon";
import { startCoinplane, withPostgresDatabase } from "./coinplane-server.ts";
import { root, type Started, startProcess, stopProcess } from "./processes.ts";
import { prepareScenarios } from "./scenarios.ts";

const MEASURED = 1000;
const scratch = mkdtempSync(path.join(os.tmpdir(), "coinplane-async-"));
const preload = path.join(root, "bench", "count-async-preload.mjs");
process.env.BENCH_NODE_FLAGS = `--import ${preload}`;

async function counts(started: Started, file: string): Promise<Record<string, number>> {
  started.child.kill("SIGUSR2");
  for (let i = 0; i < 50; i++) {
    await new Promise((r) => setTimeout(r, 100));
    try {
      return JSON.parse(readFileSync(file, "utf8")) as Record<string, number>;
    } catch {
      // not written yet
    }
  }
  throw new Error("the server did not write its async counts");
}

/** Async resources created per request over MEASURED requests, one at a time, after a warm-up. */
async function perRequest(started: Started, file: string, requests: Request[]): Promise<Record<string, number>> {
  await autocannon({ url: started.url, connections: 1, amount: 200, requests });
  rmSync(file, { force: true });
  const before = await counts(started, file);
  rmSync(file, { force: true });
  const run = await autocannon({ url: started.url, connections: 1, amount: MEASURED, requests });
  if (run.non2xx > 0 || run.errors > 0) throw new Error(`${run.non2xx} non-2xx and ${run.errors} errors while counting`);
  const after = await counts(started, file);
  return Object.fromEntries(Object.entries(after).map(([type, n]) => [type, (n - (before[type] ?? 0)) / run.requests.total]));
}

const TYPES = ["PROMISE", "TickObject", "Timeout", "FSREQCALLBACK"] as const;
const format = (c: Record<string, number> | undefined) => TYPES.map((t) => (c?.[t] ?? 0).toFixed(1));

async function countTree(label: string, cwd: string, url: string, port: number): Promise<Map<string, Record<string, number>>> {
  const file = path.join(scratch, `${label}.json`);
  const rows = new Map<string, Record<string, number>>();
  const server = await startCoinplane(url, port, cwd, { COINPLANE_ASYNC_COUNT_FILE: file });
  let walletId = "";
  try {
    for (const scenario of await prepareScenarios(server.url)) {
      rows.set(scenario.name, await perRequest(server, file, scenario.requests));
      if (scenario.id === "wallet_get") walletId = scenario.requests[0]?.path?.split("/").pop() ?? "";
    }
  } finally {
    await stopProcess(server.child);
  }
  const floor = await startProcess("bench/database-floor.ts", port + 1, { DATABASE_URL: url, COINPLANE_ASYNC_COUNT_FILE: file });
  try {
    rows.set("Database floor, 1 round trip", await perRequest(floor, file, [{ method: "GET", path: `/wallets/${walletId}?roundTrips=1` }]));
  } finally {
    await stopProcess(floor.child);
  }
  return rows;
}

/** With COINPLANE_ASYNC_SITES=1: per request, the functions that created the most promises (the preload's "site:"
 * keys), for each scenario and tree. */
function printSites(trees: Array<[string, Map<string, Record<string, number>>]>): void {
  for (const [label, rows] of trees) {
    for (const [scenario, counted] of rows) {
      const top = Object.entries(counted)
        .filter(([key, n]) => key.startsWith("site:") && n >= 0.05)
        .sort((a, b) => b[1] - a[1])
        .slice(0, 30);
      const byModule = new Map<string, number>();
      for (const [key, n] of Object.entries(counted)) {
        if (!key.startsWith("site:")) continue;
        const module = /(node_modules\/(?:@[^/]+\/)?[^/]+|server\/[^:]+|bench\/[^:]+)/.exec(key)?.[1] ?? "Node's own";
        byModule.set(module, (byModule.get(module) ?? 0) + n);
      }
      const modules = [...byModule].sort((a, b) => b[1] - a[1]).filter(([, n]) => n >= 0.05);
      console.log(`\n${label}, ${scenario}: promises per request by module`);
      for (const [module, n] of modules) console.log(`  ${n.toFixed(1).padStart(5)}  ${module}`);
      console.log(`${label}, ${scenario}: by the function that created them (top 30)`);
      for (const [key, n] of top) console.log(`  ${n.toFixed(1).padStart(5)}  ${key.slice(5)}`);
    }
  }
}

const other = process.argv[2] ? path.resolve(process.argv[2]) : undefined;
try {
  const trees: Array<[string, Map<string, Record<string, number>>]> = [];
  if (other) trees.push(["A", await withPostgresDatabase((url) => countTree("a", other, url, 4610))]);
  trees.push([other ? "B" : "this tree", await withPostgresDatabase((url) => countTree("b", root, url, 4612))]);
  const header = trees.flatMap(([label]) => TYPES.map((t) => `${label}: ${t}`));
  console.log(`\nAsync resources created per request (PostgreSQL, ${MEASURED} requests one at a time)\n`);
  console.log(`| Request | ${header.join(" | ")} |`);
  console.log(`|---|${header.map(() => "---:").join("|")}|`);
  for (const scenario of (trees.at(-1) as [string, Map<string, Record<string, number>>])[1].keys()) {
    console.log(`| ${scenario} | ${trees.flatMap(([, rows]) => format(rows.get(scenario))).join(" | ")} |`);
  }
  if (process.env.COINPLANE_ASYNC_SITES === "1") printSites(trees);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
