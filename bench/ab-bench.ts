// `npm run bench:ab -- <baseline checkout>`: this tree (B) against another checkout of Coinplane (A, e.g. main before a
// change) in one run: both servers up at once, and for each scenario the hello world, A and B measured back to back,
// ROUNDS times, so the machine's drifting load falls on both alike. Prints a markdown table of req/s, p99 and server
// CPU per request, with B/A. The baseline needs its node_modules (a symlink to this tree's is enough when the
// dependencies match). Env: BENCH_SECONDS (default 5), BENCH_CONNECTIONS (32), BENCH_AB_ROUNDS (2), BENCH_DATABASES,
// BENCH_AB_SCENARIOS.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon, { type Request } from "autocannon";
import { startCoinplane, withPostgresDatabase } from "./coinplane-server.ts";
import { cpuMs, type Started, startProcess, stopProcess } from "./processes.ts";
import { prepareScenarios, type Scenario } from "./scenarios.ts";

const baseline = process.argv[2];
if (!baseline) {
  console.error("usage: npm run bench:ab -- <path of the baseline checkout>");
  process.exit(2);
}
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
// Rounded up to an even number, so each side goes first in as many rounds as the other. With an odd number one side
// goes first more often, and the order matters here: on PGlite the keyed payment of one pair of trees read B/A 0.79
// and 0.85 in 3-round runs, 1.04 and 1.21 in 6-round runs (the side that follows a write burst likely shares the
// cores with the other process still finishing it; not measured further).
const rounds = Math.ceil(Number(process.env.BENCH_AB_ROUNDS ?? 2) / 2) * 2;
const databases = (process.env.BENCH_DATABASES ?? "pglite,postgres").split(",");
/** BENCH_AB_SCENARIOS=wallet_get,v2_write: only those (bench/scenarios.ts ids). */
const only = process.env.BENCH_AB_SCENARIOS?.split(",");

interface Sample {
  rps: number;
  p99: number;
  cpuMs: number;
}

async function load(target: Started, requests: Request[]): Promise<Sample> {
  await autocannon({ url: target.url, connections, duration: 2, requests });
  const before = cpuMs(target.child.pid);
  const r = await autocannon({ url: target.url, connections, duration: seconds, requests });
  if (r.non2xx > 0 || r.errors > 0) throw new Error(`${target.url}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return { rps: r.requests.average, p99: r.latency.p99, cpuMs: (cpuMs(target.child.pid) - before) / r.requests.total };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

async function compare(database: string, urls: [string, string]): Promise<string[]> {
  const a = await startCoinplane(urls[0], 4611, baseline);
  const b = await startCoinplane(urls[1], 4612);
  try {
    const scenarios: [Scenario[], Scenario[]] = [await prepareScenarios(a.url), await prepareScenarios(b.url)];
    const lines: string[] = [];
    for (const [i, scenario] of scenarios[0].entries()) {
      if (only && !only.includes(scenario.id)) continue;
      const samples: { hello: number[]; a: Sample[]; b: Sample[] } = { hello: [], a: [], b: [] };
      for (let round = 0; round < rounds; round++) {
        samples.hello.push((await load(hello, [{ method: "GET", path: "/" }])).rps);
        // Alternate who goes first, so neither always runs on the warmer (or more loaded) slot.
        const order = round % 2 === 0 ? (["a", "b"] as const) : (["b", "a"] as const);
        for (const side of order) {
          const target = side === "a" ? a : b;
          const requests = (side === "a" ? scenario : (scenarios[1][i] as Scenario)).requests;
          samples[side].push(await load(target, requests));
        }
      }
      const ra = median(samples.a.map((s) => s.rps));
      const rb = median(samples.b.map((s) => s.rps));
      const ca = median(samples.a.map((s) => s.cpuMs));
      const cb = median(samples.b.map((s) => s.cpuMs));
      const line = `| ${database} | ${scenario.name} | ${median(samples.hello).toFixed(0)} | ${ra.toFixed(0)} | ${rb.toFixed(0)} | ${(rb / ra).toFixed(2)} | ${median(samples.a.map((s) => s.p99))} / ${median(samples.b.map((s) => s.p99))} | ${ca.toFixed(3)} / ${cb.toFixed(3)} (${(cb / ca).toFixed(2)}) |`;
      console.log(line);
      lines.push(line);
    }
    return lines;
  } finally {
    await stopProcess(a.child);
    await stopProcess(b.child);
  }
}

const hello = await startProcess("bench/hello-world.ts", 4610);
try {
  const lines = [
    `A: ${baseline}, B: this tree; ${rounds} rounds of ${seconds} s per side, ${connections} connections, median of the rounds; load average before: ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}`,
    "",
    "| Database | Scenario | hello req/s | A req/s | B req/s | B/A | p99 ms A / B | CPU ms/request A / B (B/A) |",
    "|---|---|---|---|---|---|---|---|",
  ];
  if (databases.includes("pglite")) {
    const dirs = [mkdtempSync(path.join(os.tmpdir(), "coinplane-ab-")), mkdtempSync(path.join(os.tmpdir(), "coinplane-ab-"))];
    try {
      lines.push(...(await compare("PGlite", [`pglite:${dirs[0]}/pglite`, `pglite:${dirs[1]}/pglite`])));
    } finally {
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    }
  }
  if (databases.includes("postgres")) {
    lines.push(...(await withPostgresDatabase((ua) => withPostgresDatabase((ub) => compare("PostgreSQL", [ua, ub])))));
  }
  lines.push(
    "",
    `load average after: ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}`,
  );
  console.log(`\n${lines.join("\n")}`);
} finally {
  await stopProcess(hello.child);
}
