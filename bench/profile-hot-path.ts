// `npm run bench:profile`: runs one scenario against Coinplane on PostgreSQL under `node --cpu-prof` and prints the
// functions with the most self time, grouped by file, so the hot path's cost is visible. Not part of `npm test`.
// Env: PROFILE_SCENARIO (wallet_get | payment_post | v2_write | v2_replay; default wallet_get), BENCH_SECONDS (default 10).
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { startCoinplane, withPostgresDatabase } from "./coinplane-server.ts";
import { root, stopProcess } from "./processes.ts";
import { prepareScenarios } from "./scenarios.ts";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

const scenarioId = process.env.PROFILE_SCENARIO ?? "wallet_get";
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const profileDir = mkdtempSync(path.join(os.tmpdir(), "coinplane-profile-"));
process.env.BENCH_NODE_FLAGS = `--cpu-prof --cpu-prof-dir=${profileDir}`;
await withPostgresDatabase(async (databaseUrl) => {
  const server = await startCoinplane(databaseUrl, 4610);
  try {
    const scenario = (await prepareScenarios(server.url)).find((s) => s.id === scenarioId);
    if (!scenario) throw new Error(`unknown PROFILE_SCENARIO ${scenarioId}`);
    const r = await autocannon({ url: server.url, connections: 32, duration: seconds, requests: scenario.requests });
    console.log(`${scenario.name}: ${r.requests.average} req/s, p99 ${r.latency.p99} ms, non-2xx ${r.non2xx}`);
  } finally {
    await stopProcess(server.child);
    if (server.child.exitCode !== 0)
      console.error(`server exited with ${server.child.exitCode ?? server.child.signalCode}\n${server.stderr()}`);
  }
});

const file = readdirSync(profileDir).find((f) => f.endsWith(".cpuprofile"));
if (!file) throw new Error(`no profile written in ${profileDir}`);
const profile = JSON.parse(readFileSync(path.join(profileDir, file), "utf8")) as { nodes: ProfileNode[] };
const total = profile.nodes.reduce((sum, n) => sum + (n.hitCount ?? 0), 0);
const byFunction = new Map<string, number>();
const byPackage = new Map<string, number>();
for (const n of profile.nodes) {
  const where = n.callFrame.url.replace(`file://${root}/`, "");
  const fn = `${n.callFrame.functionName || "(anonymous)"} ${where}:${n.callFrame.lineNumber + 1}`;
  byFunction.set(fn, (byFunction.get(fn) ?? 0) + (n.hitCount ?? 0));
  const pkg =
    /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(where)?.[1] ??
    (where.startsWith("server/") ? where.split("/").slice(0, 2).join("/") : where || n.callFrame.functionName);
  byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + (n.hitCount ?? 0));
}
const top = (m: Map<string, number>, k: number) =>
  [...m.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, k)
    .map(([key, hits]) => `${((hits / total) * 100).toFixed(1).padStart(5)}%  ${key}`);
console.log(`\nSelf time by package/folder (profile: ${path.join(profileDir, file)}):\n${top(byPackage, 20).join("\n")}`);
console.log(`\nTop functions by self time:\n${top(byFunction, 30).join("\n")}`);
