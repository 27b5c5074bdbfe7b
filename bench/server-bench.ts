// `npm run bench`: Coinplane's own throughput and latency next to a bare Express 5 hello world, in one run on one
// machine, on PGlite and on PostgreSQL, and the database floor (bench/database-floor.ts); writes bench/results.md
// (BENCH_SERVER=build, the tsc build instead of the source through tsx: bench/results-build.md).
// Not part of `npm test`.
// Env: BENCH_SECONDS (default 10), BENCH_CONNECTIONS (default 32), BENCH_DATABASE_URL (PostgreSQL server to create a
// throwaway database on; default postgresql://postgres@127.0.0.1:5432/postgres), BENCH_DATABASES (pglite,postgres by
// default; name one to run only it), BENCH_NODE_FLAGS (e.g. --cpu-prof),
// BENCH_CONTRACT_FLOOR_LOG (async: the contract floor's log line buffered; an experiment, bench/contract-floor-steps.ts).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon, { type Request } from "autocannon";
import { SERVER_COMMAND, SERVER_FROM_BUILD, startCoinplane, withPostgresDatabase } from "./coinplane-server.ts";
import { measureCompileEventLoop } from "./event-loop.ts";
import { cpuMs, root, rssMiB, type Started, startProcess, stopProcess } from "./processes.ts";
import { type Row, renderResults } from "./report.ts";
import { prepareScenarios, type Scenario } from "./scenarios.ts";
import { contractFloorId, prepareStackFloor } from "./stack-floor-requests.ts";
import { measureWebhookLag, renderWebhookLag, type WebhookLag } from "./webhook-lag.ts";

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
const databases = (process.env.BENCH_DATABASES ?? "pglite,postgres").split(",");
/** Webhook delivery lag per database (bench/webhook-lag.ts), measured after the request scenarios. */
const webhookLags: WebhookLag[] = [];

/**
 * A 2 s warm-up (JIT, caches, pool), then the measured run. With `pid`, the server's CPU (user + system) is read at the
 * start, between the two and at the end, so each phase's CPU per request is its own (NaN without: the hello world's).
 */
async function load(url: string, requests: Request[], pid?: number) {
  const cpuNow = () => (pid === undefined ? Number.NaN : cpuMs(pid));
  const atStart = cpuNow();
  const warmup = await autocannon({ url, connections, duration: 2, requests });
  const afterWarmup = cpuNow();
  const r = await autocannon({ url, connections, duration: seconds, requests });
  const atEnd = cpuNow();
  return {
    requestsPerSecond: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    total: r.requests.total,
    // Steady state, as bench:ab and bench:profile read it. The warm-up's figure is apart: a fresh process pays there
    // for V8 compiling the scenario's code (its compiler threads count in the process's CPU), about twice a request's
    // steady cost (docs/performance.md, eighth session), and counting it in made the figure depend on which scenario
    // first ran a code path.
    cpuPerRequestMs: (atEnd - afterWarmup) / r.requests.total,
    warmupCpuPerRequestMs: (afterWarmup - atStart) / warmup.requests.total,
    non2xx: r.non2xx,
    errors: r.errors,
  };
}

/** One measured row: the hello world right before, then `requests` against `target`, with the target's CPU. */
async function measure(target: Started, requests: Request[], hello: Started, row: Pick<Row, "server" | "scenario" | "id" | "database">) {
  // The hello world is measured right before each scenario, so each ratio compares two runs seconds apart on a
  // machine whose load drifts; the idle hello process costs nothing meanwhile.
  const ceiling = await load(hello.url, HELLO_REQUESTS);
  // Server CPU per request: unlike req/s, it hardly moves with the machine's load.
  const result = await load(target.url, requests, target.child.pid);
  console.log(
    `${row.server} ${row.scenario}: ${result.requestsPerSecond.toFixed(0)} req/s (hello ${ceiling.requestsPerSecond.toFixed(0)}), p99 ${result.p99} ms, ${result.cpuPerRequestMs.toFixed(3)} ms CPU (warm-up ${result.warmupCpuPerRequestMs.toFixed(3)})`,
  );
  return { ...row, ...result, helloRequestsPerSecond: ceiling.requestsPerSecond, rssMiB: rssMiB(target.child.pid) };
}

/** The database floor (bench/database-floor.ts) with one round trip per request, as the GET, and three, as a bank transfer. */
async function benchDatabaseFloor(databaseUrl: string, walletId: string, hello: Started): Promise<Row[]> {
  const floor = await startProcess("bench/database-floor.ts", 4603, { DATABASE_URL: databaseUrl });
  try {
    const rows: Row[] = [];
    for (const roundTrips of [1, 3] as const) {
      const requests: Request[] = [{ method: "GET", path: `/wallets/${walletId}?roundTrips=${roundTrips}` }];
      const scenario = `Express 5 + ${roundTrips} PostgreSQL round trip${roundTrips === 1 ? "" : "s"}, nothing else`;
      rows.push(
        await measure(floor, requests, hello, { server: "Database floor", scenario, id: `floor_${roundTrips}`, database: "PostgreSQL" }),
      );
    }
    return rows;
  } finally {
    await stopProcess(floor.child);
  }
}

/**
 * The stack floor (bench/stack-floor.ts): each hot-path request through Express 5, express-openapi-validator and `pg`
 * alone, sent as Coinplane was sent it and answering what Coinplane answered (bench/stack-floor-requests.ts); then the
 * contract floor, the same with the contract's own steps at their cheapest (bench/contract-floor-steps.ts).
 */
async function benchStackFloor(databaseUrl: string, coinplaneUrl: string, scenarios: Scenario[], hello: Started): Promise<Row[]> {
  const setup = await prepareStackFloor(coinplaneUrl, scenarios);
  try {
    const rows: Row[] = [];
    for (const withContract of [false, true]) {
      const contract = { STACK_FLOOR_CONTRACT: "1", CONTRACT_FLOOR_LOG: contractFloorLog };
      const env = { DATABASE_URL: databaseUrl, ...setup.env, ...(withContract ? contract : {}) };
      const floor = await startProcess("bench/stack-floor.ts", withContract ? 4605 : 4604, env);
      try {
        if (withContract) await setup.checkSameAnswers(floor.url);
        for (const scenario of setup.scenarios) {
          rows.push(
            await measure(floor, scenario.requests, hello, {
              server: withContract ? "Contract floor" : "Stack floor",
              scenario: withContract
                ? `${scenario.name.replace(/, nothing else$/, "")}, and the contract's steps at their cheapest`
                : scenario.name,
              id: withContract ? contractFloorId(scenario.id) : scenario.id,
              database: "PostgreSQL",
            }),
          );
        }
      } finally {
        await stopProcess(floor.child);
      }
    }
    return rows;
  } finally {
    setup.cleanup();
  }
}

/** BENCH_CONTRACT_FLOOR_LOG=async: the contract floor's log line through a buffered destination (an experiment: what
 * an asynchronous log destination would buy; Coinplane writes each line synchronously). */
const contractFloorLog = process.env.BENCH_CONTRACT_FLOOR_LOG === "async" ? "async" : "sync";

async function benchCoinplane(database: string, databaseUrl: string, port: number, hello: Started): Promise<Row[]> {
  const server = await startCoinplane(databaseUrl, port);
  try {
    const scenarios = await prepareScenarios(server.url);
    const rows: Row[] = [];
    for (const scenario of scenarios) {
      rows.push(
        await measure(server, scenario.requests, hello, {
          server: `Coinplane on ${database}`,
          scenario: scenario.name,
          id: scenario.id,
          database,
        }),
      );
    }
    if (database === "PostgreSQL") {
      const walletPath = scenarios.find((s) => s.id === "wallet_get")?.requests[0]?.path ?? "";
      const walletId = walletPath.split("/").pop() ?? "";
      rows.push(...(await benchDatabaseFloor(databaseUrl, walletId, hello)));
      rows.push(...(await benchStackFloor(databaseUrl, server.url, scenarios, hello)));
    }
    const lag = await measureWebhookLag(server.url, database, { seconds: Math.min(seconds, 5) });
    webhookLags.push(lag);
    console.log(
      `${database} webhook delivery lag at ${lag.ratePerSecond}/s: p50 ${lag.p50Ms} ms, p99 ${lag.p99Ms} ms (${lag.delivered}/${lag.produced} delivered)`,
    );
    return rows;
  } finally {
    await stopProcess(server.child);
  }
}

const HELLO_REQUESTS: Request[] = [{ method: "GET", path: "/" }];
const hello = await startProcess("bench/hello-world.ts", 4600);
const rows: Row[] = [];
try {
  if (databases.includes("pglite")) {
    const pgliteDir = mkdtempSync(path.join(os.tmpdir(), "coinplane-bench-"));
    try {
      rows.push(...(await benchCoinplane("PGlite", `pglite:${pgliteDir}/pglite`, 4601, hello)));
    } finally {
      rmSync(pgliteDir, { recursive: true, force: true });
    }
  }
  if (databases.includes("postgres")) {
    rows.push(...(await withPostgresDatabase((url) => benchCoinplane("PostgreSQL", url, 4602, hello))));
  }
  const helloRss = rssMiB(hello.child.pid);
  // Last, with the servers stopped: the event-loop delay of this process while contracts compile.
  const compileEventLoop = await measureCompileEventLoop();
  console.log(
    `compile event-loop delay p99: pool ${compileEventLoop.pool.p99Ms.toFixed(1)} ms, on the event loop ${compileEventLoop.onEventLoop.p99Ms.toFixed(1)} ms`,
  );
  const markdown =
    renderResults(rows, {
      seconds,
      connections,
      loadAverage: os.loadavg(),
      helloRssMiB: helloRss,
      serverCommand: SERVER_COMMAND,
      compileEventLoop,
    }) + renderWebhookLag(webhookLags);
  // The build's run (BENCH_SERVER=build) has a file of its own: bench/results.md stays the default run's.
  writeFileSync(path.join(root, "bench", SERVER_FROM_BUILD ? "results-build.md" : "results.md"), markdown);
  console.log(markdown);
} finally {
  await stopProcess(hello.child);
}
