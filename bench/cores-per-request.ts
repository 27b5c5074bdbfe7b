// `npx tsx bench/cores-per-request.ts`: where the machine's cores go per request while the GET runs, and while the
// database floor (bench/database-floor.ts) runs: the server process, PostgreSQL's processes, this process (the load
// generator) and the idle time left, each in ms per request, two rounds of each after a warm-up. Idle time left over
// under load means the bottleneck is one process's thread, not the machine; then a request's req/s follows its server's
// CPU per request (docs/performance.md, "Fourth session").
import { readdirSync, readFileSync } from "node:fs";
import autocannon, { type Request } from "autocannon";
import { startCoinplane, withPostgresDatabase } from "./coinplane-server.ts";
import { cpuMs, processCpu, type Started, startProcess, stopProcess } from "./processes.ts";
import { prepareScenarios } from "./scenarios.ts";

const TICK_MS = 10; // /proc counts in clock ticks of 10 ms

/** CPU ms of each running PostgreSQL process, by pid. */
function postgresCpu(): Map<string, number> {
  const byPid = new Map<string, number>();
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    const stat = processCpu(pid); // undefined: the process ended meanwhile
    if (stat?.command === "postgres") byPid.set(pid, stat.cpuMs);
  }
  return byPid;
}

/** CPU PostgreSQL spent between two readings: processes present in both (a backend that ended took its ticks along). */
function postgresSpent(before: Map<string, number>, after: Map<string, number>): number {
  let spent = 0;
  for (const [pid, ms] of after) if (before.has(pid)) spent += ms - (before.get(pid) as number);
  return spent;
}

/** Idle CPU time of the whole machine so far, in ms (/proc/stat: idle + iowait). */
function idleMs(): number {
  const fields = (readFileSync("/proc/stat", "utf8").split("\n")[0] as string).trim().split(/\s+/).slice(1).map(Number);
  return ((fields[3] as number) + (fields[4] as number)) * TICK_MS;
}

async function measure(label: string, target: Started, requests: Request[]) {
  await autocannon({ url: target.url, connections: 32, duration: 2, requests });
  const server = cpuMs(target.child.pid);
  const postgres = postgresCpu();
  const self = process.cpuUsage();
  const idle = idleMs();
  const run = await autocannon({ url: target.url, connections: 32, duration: 10, requests });
  const loadGenerator = process.cpuUsage(self);
  const n = run.requests.total;
  const per = (ms: number) => (ms / n).toFixed(3);
  console.log(
    `| ${label} | ${run.requests.average.toFixed(0)} | ${per(cpuMs(target.child.pid) - server)} | ${per(postgresSpent(postgres, postgresCpu()))} | ${per((loadGenerator.user + loadGenerator.system) / 1000)} | ${per(idleMs() - idle)} |`,
  );
}

await withPostgresDatabase(async (url) => {
  const server = await startCoinplane(url, 4602);
  const floor = await startProcess("bench/database-floor.ts", 4603, { DATABASE_URL: url });
  try {
    const get = (await prepareScenarios(server.url)).find((s) => s.id === "wallet_get");
    if (!get) throw new Error("no wallet_get scenario");
    const walletId = get.requests[0]?.path?.split("/").pop() ?? "";
    console.log(`\nms per request, ${32} connections, 10 s per row (${new Date().toISOString()})\n`);
    console.log("| Run | req/s | server | PostgreSQL | load generator | idle |");
    console.log("|---|---:|---:|---:|---:|---:|");
    for (let round = 0; round < 2; round++) {
      await measure("Coinplane GET /api/v1/wallets/{id}", server, get.requests);
      await measure("database floor, 1 round trip", floor, [{ method: "GET", path: `/wallets/${walletId}?roundTrips=1` }]);
    }
  } finally {
    await stopProcess(floor.child);
    await stopProcess(server.child);
  }
});
