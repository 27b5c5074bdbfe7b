// Renders bench/results.md: the measured table, then each target of the write-path issue (13) as a ratio of the hello
// world measured right before the scenario in the same run, then the hand-written notes (bench/notes/: the figures
// before the change, and what the profile says about what is left), which a rerun keeps.
import { readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { CompileEventLoop, EventLoopDelay } from "./event-loop.ts";

type ScenarioId = "wallet_get" | "payment_post" | "payment_post_keyed" | "v2_write" | "v2_replay";

export interface Row {
  server: string;
  scenario: string;
  id: ScenarioId | "floor_1" | "floor_3" | `stack_${ScenarioId}` | `contract_${ScenarioId}`;
  database: string;
  requestsPerSecond: number;
  /** The bare Express hello world's req/s, measured just before this scenario. */
  helloRequestsPerSecond: number;
  /** Server CPU time per request (user + system) over the measured run, after the warm-up, ms. */
  cpuPerRequestMs: number;
  /** The same over the 2 s warm-up, which includes V8 compiling the scenario's code in a fresh process, ms. */
  warmupCpuPerRequestMs: number;
  p50: number;
  p99: number;
  total: number;
  non2xx: number;
  errors: number;
  rssMiB: number;
}

interface Target {
  id: Row["id"];
  label: string;
  minRatio: number;
  maxP99Ms?: number;
  maxCpuMs?: number;
}

// Targets of issue 13 (one write path), judged on PostgreSQL (the production database) at the run's connection count.
// Every scenario must also answer 2xx only; every write's p99 must stay ≤ 100 ms.
const TARGETS: Target[] = [
  { id: "wallet_get", label: "authenticated, validated GET /api/v1/wallets/{id}", minRatio: 0.5, maxP99Ms: 25 },
  { id: "payment_post", label: "v1 payment (POST /api/v1/payments)", minRatio: 0.25, maxP99Ms: 100 },
  { id: "payment_post_keyed", label: "v1 payment with an Idempotency-Key (as the SDK sends)", minRatio: 0.25, maxP99Ms: 100 },
  { id: "v2_write", label: "v2 bank transfer (new Idempotency-Key each)", minRatio: 0.25, maxP99Ms: 100, maxCpuMs: 3 },
  { id: "v2_replay", label: "idempotent replay", minRatio: 0.4 },
];

const notesDir = path.join(path.dirname(fileURLToPath(import.meta.url)), "notes");
const note = (name: string) => readFileSync(path.join(notesDir, name), "utf8").trim();

const fmt = (n: number) => n.toLocaleString("en-US", { maximumFractionDigits: 0 });
const pct = (n: number) => `${(n * 100).toFixed(0)}%`;

function verdict(t: Target, rows: Row[]): string {
  const row = rows.find((r) => r.id === t.id && r.database === "PostgreSQL");
  const goal = `≥ ${pct(t.minRatio)}${t.maxP99Ms ? `, p99 ≤ ${t.maxP99Ms} ms` : ""}${t.maxCpuMs ? `, ≤ ${t.maxCpuMs} ms CPU/request` : ""}, 0 non-2xx`;
  if (!row) return `| ${t.label} | ${goal} | not measured | - |`;
  const ratio = row.requestsPerSecond / row.helloRequestsPerSecond;
  const valid = row.non2xx === 0 && row.errors === 0;
  const met =
    valid &&
    ratio >= t.minRatio &&
    (t.maxP99Ms === undefined || row.p99 <= t.maxP99Ms) &&
    (t.maxCpuMs === undefined || row.cpuPerRequestMs <= t.maxCpuMs);
  const got = `${pct(ratio)}${t.maxP99Ms ? `, p99 ${row.p99} ms` : ""}${t.maxCpuMs ? `, ${row.cpuPerRequestMs.toFixed(2)} ms CPU` : ""}, ${fmt(row.non2xx)} non-2xx`;
  return `| ${t.label} | ${goal} | ${got} | ${met ? "met" : "**not met**"} |`;
}

// Round trips each benchmarked request sends once its organization's copies are in memory
// (test/db/statement-budget.test.ts): the floor row it is compared with.
// A keyed v1 payment sends two (the key's record, then the closing statement): there is no two-trip floor row.
const ROUND_TRIPS: Partial<Record<Row["id"], 1 | 3>> = { wallet_get: 1, payment_post: 1, v2_write: 3, v2_replay: 1 };

/** Issue 28 item 6: the key may cost a keyed v1 payment at most this much server CPU over the unkeyed one. */
const KEYED_PAYMENT_MAX_EXTRA_CPU_MS = 0.3;

function renderKeyedPayment(rows: Row[]): string {
  const on = (id: Row["id"]) => rows.find((r) => r.id === id && r.database === "PostgreSQL");
  const unkeyed = on("payment_post");
  const keyed = on("payment_post_keyed");
  if (!unkeyed || !keyed) return "";
  const extra = keyed.cpuPerRequestMs - unkeyed.cpuPerRequestMs;
  const met = extra <= KEYED_PAYMENT_MAX_EXTRA_CPU_MS;
  return `## What the Idempotency-Key costs a v1 payment (issue 28, PostgreSQL, same run)

The SDK sends an Idempotency-Key on every write. Target: a keyed v1 payment within ${KEYED_PAYMENT_MAX_EXTRA_CPU_MS} ms of server
CPU of the unkeyed one — **${met ? "met" : "not met"}**: ${keyed.cpuPerRequestMs.toFixed(2)} ms keyed against
${unkeyed.cpuPerRequestMs.toFixed(2)} ms unkeyed (${extra >= 0 ? "+" : ""}${extra.toFixed(2)} ms).
`;
}

function renderFloor(rows: Row[]): string {
  const floor = (roundTrips: 1 | 3) => rows.find((r) => r.id === `floor_${roundTrips}`);
  const one = floor(1);
  const three = floor(3);
  if (!one || !three) return "";
  const ratio = (r: Row) => r.requestsPerSecond / r.helloRequestsPerSecond;
  const lines = TARGETS.map((t) => {
    const row = rows.find((r) => r.id === t.id && r.database === "PostgreSQL");
    const roundTrips = ROUND_TRIPS[t.id];
    const under = roundTrips === undefined ? undefined : floor(roundTrips);
    if (!row || !under || roundTrips === undefined) return `| ${t.label} | - | - | - | - |`;
    return `| ${t.label} | ${roundTrips} | ${pct(t.minRatio)} | ${pct(ratio(under))}, ${under.cpuPerRequestMs.toFixed(2)} ms | ${pct(ratio(row))}, ${row.cpuPerRequestMs.toFixed(2)} ms |`;
  });
  return `## The database floor (same run)

The "Database floor" rows are a bare Express 5 app (bench/database-floor.ts) that sends PostgreSQL the wallet's row by
id (the GET's table and key, without the GET's aggregate of the wallet's assets), prepared once per connection, on a
\`pg\` pool of the server's size — once or three times in a row per
request and answers the row: no authentication, validation, rate limit, log line or domain. Each benchmarked request is
set against the floor of the round trips it sends once its organization's copies are in memory
(test/db/statement-budget.test.ts). A target at or above its floor cannot be met here by any request path, whatever it
adds; one below it leaves the gap between the two for everything the request does besides its round trips.

| Target | Round trips | Target ratio | Floor: ratio, CPU/request | Coinplane: ratio, CPU/request |
|---|---:|---:|---:|---:|
${lines.join("\n")}
`;
}

/** Issue 39: each hot-path request as a share of the floor of its round trips, measured in the same run. */
const HOT_PATH: { id: Row["id"]; label: string; floor: 1 | 3; minShare: number; maxP99Ms: number; maxCpuMs?: number }[] = [
  { id: "wallet_get", label: "GET /api/v1/wallets/{id}", floor: 1, minShare: 0.7, maxP99Ms: 25 },
  { id: "payment_post_keyed", label: "POST /api/v1/payments with an Idempotency-Key", floor: 1, minShare: 0.6, maxP99Ms: 100 },
  { id: "v2_write", label: "POST bank transfer (new key each)", floor: 3, minShare: 0.5, maxP99Ms: 100, maxCpuMs: 0.8 },
  { id: "v2_replay", label: "the same bank transfer replayed", floor: 1, minShare: 0.7, maxP99Ms: 100 },
];

function renderHotPath(rows: Row[]): string {
  const floor = (roundTrips: 1 | 3) => rows.find((r) => r.id === `floor_${roundTrips}`);
  const one = floor(1);
  const three = floor(3);
  if (!one || !three) return "";
  const lines = HOT_PATH.map((t) => {
    const row = rows.find((r) => r.id === t.id && r.database === "PostgreSQL");
    const under = floor(t.floor) as Row;
    if (!row) return `| ${t.label} | - | - | - | - | - | - | - | - | not measured |`;
    const share = row.requestsPerSecond / under.requestsPerSecond;
    // The same share with each figure taken relative to the hello world measured just before it: the machine's drift
    // between the two measurements taken out. Shown beside the share; the verdict is on the share itself.
    const drifted = row.requestsPerSecond / row.helloRequestsPerSecond / (under.requestsPerSecond / under.helloRequestsPerSecond);
    const met =
      row.non2xx === 0 &&
      row.errors === 0 &&
      share >= t.minShare &&
      row.p99 <= t.maxP99Ms &&
      (t.maxCpuMs === undefined || row.cpuPerRequestMs <= t.maxCpuMs);
    const goal = `≥ ${pct(t.minShare)} of ${t.floor} RT, p99 ≤ ${t.maxP99Ms} ms${t.maxCpuMs ? `, ≤ ${t.maxCpuMs} ms CPU` : ""}`;
    return `| ${t.label} | ${fmt(row.requestsPerSecond)} | ${t.floor} RT: ${fmt(under.requestsPerSecond)} | **${pct(share)}** (${pct(drifted)}) | ${stackAlone(rows, t, under, row)} | ${contractAtItsCheapest(rows, t, under)} | ${row.cpuPerRequestMs.toFixed(2)} (floor ${under.cpuPerRequestMs.toFixed(2)}) | ${row.p99} (floor ${under.p99}) | ${goal} | ${met ? "met" : "**not met**"} |`;
  });
  return `## The hot path against its floor (issue 39, PostgreSQL, same run)

Each request's req/s divided by the req/s of the database floor with the round trips it sends (the floor rows above:
Express 5 and \`pg\`, nothing else). In brackets, the same share with each figure first divided by the hello world
measured just before it, which takes out the machine's drift between the two measurements. "The stack alone" is the
same share for the stack floor (bench/stack-floor.ts): the same request through Express 5, express-openapi-validator
and \`pg\` with its round trips and its answer, and nothing else — no authentication, rate limit, log line, metrics,
idempotency or domain, each part at its cheapest (a write sends the floor's read in place of its inserts, so
PostgreSQL's work for the write is not in it). It is the most any request path on this stack that parses, validates
and answers the request can reach: a target above it is out of reach of any code of ours, and one below it leaves the
difference for everything the contract adds: beside it, about how much CPU per request that difference allows (the
server's one thread is what saturates here, so req/s goes as the inverse of the CPU per request) and how much the
contract's steps take today (the request's CPU less the stack floor's). Where the time of each request goes, stage by stage, is in docs/performance.md
(\`npm run bench:profile\`). Beside each p99, the floor's own p99 at the same 32 connections: a p99 target below it
cannot be met in this run by any request path, which does all the floor does and more.

| Request | req/s | Floor req/s | Share of floor | The stack alone | The contract at its cheapest | CPU ms/request | p99 ms | Target | Verdict |
|---|---:|---:|---:|---:|---:|---:|---:|---|---|
${lines.join("\n")}
`;
}

/**
 * The stack floor's share of the same database floor and its CPU per request, and what the target leaves for the
 * contract's own steps: the server's one thread is what saturates here (docs/performance.md, fourth session), so a
 * request's req/s goes as the inverse of its CPU, and a request at the target's share may spend about
 * stack CPU × stack share ÷ target share — the stack's own CPU and, above it, the budget for everything the contract adds.
 */
function stackAlone(rows: Row[], t: (typeof HOT_PATH)[number], under: Row, row: Row): string {
  const stack = rows.find((r) => r.id === `stack_${t.id}`);
  if (!stack || stack.non2xx > 0 || stack.errors > 0) return "-";
  const share = stack.requestsPerSecond / under.requestsPerSecond;
  if (share < t.minShare) return `${pct(share)}, ${stack.cpuPerRequestMs.toFixed(2)} ms: below the target, out of reach on this stack`;
  const budget = (stack.cpuPerRequestMs * share) / t.minShare - stack.cpuPerRequestMs;
  const spent = row.cpuPerRequestMs - stack.cpuPerRequestMs;
  return `${pct(share)}, ${stack.cpuPerRequestMs.toFixed(2)} ms: leaves ≈${budget.toFixed(2)} ms for the contract's steps (they take ${spent.toFixed(2)})`;
}

/** The contract floor's share of the same database floor and its CPU per request, against the target. */
function contractAtItsCheapest(rows: Row[], t: (typeof HOT_PATH)[number], under: Row): string {
  const floor = rows.find((r) => r.id === `contract_${t.id}`);
  if (!floor || floor.non2xx > 0 || floor.errors > 0) return "-";
  const share = floor.requestsPerSecond / under.requestsPerSecond;
  const verdict = share >= t.minShare ? "the target within reach" : "below the target";
  return `${pct(share)}, ${floor.cpuPerRequestMs.toFixed(2)} ms: ${verdict}`;
}

const delayRow = (label: string, d: EventLoopDelay) =>
  `| ${label} | ${d.compiles} | ${fmt(d.elapsedMs)} | ${d.p50Ms.toFixed(1)} | ${d.p99Ms.toFixed(1)} | ${d.maxMs.toFixed(1)} |`;

function renderCompileEventLoop(e: CompileEventLoop | undefined): string {
  if (!e) return "";
  const met = e.pool.p99Ms < 50;
  return `## Event-loop delay while contracts compile (issue 14)

\`perf_hooks.monitorEventLoopDelay\` (10 ms resolution) of the bench process while ${e.pool.compiles} different template
sources compile at once (bench/event-loop.ts): through the server's compiler worker pool (\`compileSolidity\`,
${e.workers} worker${e.workers === 1 ? "" : "s"}), and with solc-js called on the event loop as the server did before.
The figures are the intervals between the histogram's 10 ms samples, so an idle loop reads about 10 ms.
Target: p99 < 50 ms while compiles run — **${met ? "met" : "not met"}** (p99 ${e.pool.p99Ms.toFixed(1)} ms).

| Compiles run | Compiles | Elapsed (ms) | Delay p50 (ms) | Delay p99 (ms) | Delay max (ms) |
|---|---:|---:|---:|---:|---:|
${delayRow("on the compiler worker pool (now)", e.pool)}
${delayRow("solc on the event loop (before)", e.onEventLoop)}
`;
}

export function renderResults(
  rows: Row[],
  run: {
    seconds: number;
    connections: number;
    loadAverage: number[];
    helloRssMiB: number;
    /** How Coinplane was started (bench/coinplane-server.ts SERVER_COMMAND). */
    serverCommand: string;
    compileEventLoop?: CompileEventLoop;
  },
): string {
  const table = [
    "| Server | Scenario | Requests/s | Hello world just before | Ratio | p50 (ms) | p99 (ms) | Server CPU/request (ms) | CPU/request in the warm-up (ms) | Requests | Non-2xx | Errors | RSS after (MiB) |",
    "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...rows.map(
      (r) =>
        `| ${r.server} | ${r.scenario} | ${fmt(r.requestsPerSecond)} | ${fmt(r.helloRequestsPerSecond)} | ${pct(r.requestsPerSecond / r.helloRequestsPerSecond)} | ${r.p50} | ${r.p99} | ${r.cpuPerRequestMs.toFixed(2)} | ${r.warmupCpuPerRequestMs.toFixed(2)} | ${fmt(r.total)} | ${fmt(r.non2xx)} | ${r.errors} | ${r.rssMiB.toFixed(0)} |`,
    ),
  ].join("\n");
  const cpu = os.cpus();
  return `# Server benchmark (\`npm run bench\`)

Command: \`npm run bench\` (bench/server-bench.ts; BENCH_SECONDS=${run.seconds}, BENCH_CONNECTIONS=${run.connections}).
Machine: ${cpu.length} cores, ${cpu[0]?.model ?? "unknown CPU"}, ${fmt(os.totalmem() / 2 ** 30)} GiB, Node ${process.version};
PostgreSQL and the load generator share those cores with the server. Load average at the end of the run
${run.loadAverage.map((l) => l.toFixed(1)).join(" / ")}; the machine is shared, so only ratios within this run mean anything.
Measured ${new Date().toISOString()}.

Coinplane runs as \`${run.serverCommand}\`, the hello world and the database floor as \`node --experimental-strip-types …\`, with
NODE_ENV=production and info-level request logs (to /dev/null).
autocannon drives it over loopback with ${run.connections} connections for ${run.seconds} s after a 2 s warm-up. Right
before each scenario the same load runs against a bare Express 5 hello world (bench/hello-world.ts, the framework's
ceiling here; RSS ${run.helloRssMiB.toFixed(0)} MiB), and the ratio is against that figure. The "Database floor",
"Stack floor" and "Contract floor" rows are explained below the targets. Coinplane requests are
authenticated (Bearer API key), rate-limited (in-memory store, budgets above what the run can spend), validated against
the OpenAPI spec by express-openapi-validator, and writes commit to the database. RSS is the server's after the
scenario; server CPU/request is the server process's user + system time over the measured run's requests, which moves
far less with the machine's load than req/s does. It is read after the warm-up, as \`npm run bench:ab\` and
\`npm run bench:profile\` read it: in the warm-up a fresh process also pays for V8 compiling the scenario's code (its
compiler threads count in the process's CPU), shown in a column of its own (until 2026-12-07 it was counted in, so
older runs' CPU figures are not comparable with this column).

${table}

## Targets (issue 13, PostgreSQL, ${run.connections} connections)

| Target | Goal | Measured | Verdict |
|---|---|---|---|
${TARGETS.map((t) => verdict(t, rows)).join("\n")}

${renderHotPath(rows)}
${renderFloor(rows)}
${renderKeyedPayment(rows)}
${renderCompileEventLoop(run.compileEventLoop)}
${note("before.md")}

${note("profile.md")}

[docs/performance.md](../docs/performance.md) has the history of what was changed for each finding.
`;
}
