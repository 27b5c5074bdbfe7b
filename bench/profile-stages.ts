// `npm run bench:profile`: where each microsecond of the four hot-path requests goes, stage by stage (issue 39).
// One Coinplane process on a throwaway PostgreSQL database, started with the inspector on. For each scenario: a warm-up,
// a measured window without the profiler (its server CPU per request is the figure the stages divide), then the same
// load with V8's sampling profiler on (100 µs interval, started and stopped over the inspector protocol, so the profile
// holds that window only). Each sample is charged to a stage of the request (bench/request-stages.ts) and each stage's
// share of the samples is multiplied by the unprofiled CPU per request. Not part of `npm test`.
// Env: BENCH_SECONDS (default 8), PROFILE_SCENARIOS (comma-separated ids; default the four of issue 39),
// PROFILE_DETAIL=1 (also print each stage's libraries and top functions). With a path argument
// (`npm run bench:profile -- ../before`), that checkout is profiled beside this tree in the same run (before | after).
import autocannon, { type Request } from "autocannon";
import { startCoinplane, withPostgresDatabase } from "./coinplane-server.ts";
import { InspectorSession, inspectorUrl } from "./inspector-session.ts";
import { cpuMs, type Started, startProcess, stopProcess } from "./processes.ts";
import { type CpuProfile, chargeToStages, STAGE_ORDER, type Stage, type StageCharges } from "./request-stages.ts";
import { prepareScenarios, type Scenario } from "./scenarios.ts";
import { contractFloorId, prepareStackFloor, type StackFloorSetup } from "./stack-floor-requests.ts";

const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const wanted = (process.env.PROFILE_SCENARIOS ?? "wallet_get,payment_post_keyed,v2_write,v2_replay").split(",");
const detail = process.env.PROFILE_DETAIL === "1";
const connections = 32;
/** `npm run bench:profile -- <checkout>`: that checkout profiled beside this tree, scenario by scenario (before/after). */
const baseline = process.argv[2];

interface Measured {
  scenario: Scenario;
  /** "before" (the baseline checkout) or "after" (this tree) in a before-and-after run; empty otherwise. */
  label: string;
  requestsPerSecond: number;
  cpuPerRequestMs: number;
  charges: StageCharges;
}

async function run(url: string, requests: Request[]) {
  return autocannon({ url, connections, duration: seconds, requests });
}

/** Warm-up, the unprofiled window (CPU per request), then the profiled window, against one process. */
async function profileScenario(server: Started, inspector: InspectorSession, scenario: Scenario, label = ""): Promise<Measured> {
  await autocannon({ url: server.url, connections, duration: 2, requests: scenario.requests });
  const cpuBefore = cpuMs(server.child.pid);
  const plain = await run(server.url, scenario.requests);
  const cpuPerRequestMs = (cpuMs(server.child.pid) - cpuBefore) / plain.requests.total;
  await inspector.send("Profiler.start");
  const profiled = await run(server.url, scenario.requests);
  const { profile } = (await inspector.send("Profiler.stop")) as { profile: CpuProfile };
  if (plain.non2xx + profiled.non2xx > 0) throw new Error(`${scenario.id}: non-2xx answers; the profile would not be of the hot path`);
  console.error(
    `${scenario.name}${label ? ` (${label})` : ""}: ${plain.requests.average} req/s, ${cpuPerRequestMs.toFixed(3)} ms server CPU/request`,
  );
  return { scenario, label, requestsPerSecond: plain.requests.average, cpuPerRequestMs, charges: chargeToStages(profile) };
}

/** Runs `work` with a process started with the inspector on and V8's profiler ready at a 100 µs interval. */
async function withInspected<T>(start: () => Promise<Started>, work: (server: Started, inspector: InspectorSession) => Promise<T>) {
  const server = await start();
  const inspector = await InspectorSession.open(await inspectorUrl(server.stderr));
  try {
    await inspector.send("Profiler.enable");
    await inspector.send("Profiler.setSamplingInterval", { interval: 100 });
    return await work(server, inspector);
  } finally {
    inspector.close();
    await stopProcess(server.child);
  }
}

/** The wallet id of the GET scenario: the floor reads the same row. */
const walletIdOf = (scenarios: Scenario[]) =>
  scenarios
    .find((s) => s.id === "wallet_get")
    ?.requests[0]?.path?.split("/")
    .pop() ?? "";

const measured: Measured[] = [];
process.env.BENCH_NODE_FLAGS = "--inspect=127.0.0.1:0";
let stackFloor: StackFloorSetup | undefined;
await withPostgresDatabase(async (databaseUrl) => {
  let walletId = "";
  if (baseline) {
    // Before and after in one run: both trees up at once, each scenario profiled on one then the other (alternating who
    // goes first), so the machine's drifting load falls on both alike.
    await withPostgresDatabase((baselineUrl) =>
      withInspected(
        () => startCoinplane(baselineUrl, 4613, baseline),
        (before, beforeInspector) =>
          withInspected(
            () => startCoinplane(databaseUrl, 4611),
            async (after, afterInspector) => {
              const beforeScenarios = await prepareScenarios(before.url);
              const afterScenarios = await prepareScenarios(after.url);
              walletId = walletIdOf(afterScenarios);
              stackFloor = await prepareStackFloor(after.url, afterScenarios);
              let profiled = 0;
              for (const [i, scenario] of afterScenarios.entries()) {
                if (!wanted.includes(scenario.id)) continue;
                const profileBefore = () => profileScenario(before, beforeInspector, beforeScenarios[i] as Scenario, "before");
                const profileAfter = () => profileScenario(after, afterInspector, scenario, "after");
                // Counted over the scenarios profiled, so a PROFILE_SCENARIOS subset alternates too.
                if (profiled++ % 2 === 0) {
                  const beforeResult = await profileBefore();
                  measured.push(beforeResult, await profileAfter());
                } else {
                  const afterResult = await profileAfter();
                  measured.push(await profileBefore(), afterResult);
                }
              }
            },
          ),
      ),
    );
  } else {
    await withInspected(
      () => startCoinplane(databaseUrl, 4611),
      async (server, inspector) => {
        const scenarios = await prepareScenarios(server.url);
        walletId = walletIdOf(scenarios);
        stackFloor = await prepareStackFloor(server.url, scenarios);
        for (const scenario of scenarios.filter((s) => wanted.includes(s.id)))
          measured.push(await profileScenario(server, inspector, scenario));
      },
    );
  }
  // The floor (bench/database-floor.ts: Express 5 and `pg`, nothing else) through the same tool: its stages are what
  // any request path on this stack pays.
  await withInspected(
    () => startProcess("bench/database-floor.ts", 4612, { DATABASE_URL: databaseUrl }),
    async (floor, inspector) => {
      for (const roundTrips of [1, 3]) {
        const scenario = {
          id: `floor_${roundTrips}`,
          name: `database floor, ${roundTrips} round trip${roundTrips === 1 ? "" : "s"}`,
          requests: [{ method: "GET", path: `/wallets/${walletId}?roundTrips=${roundTrips}` }],
        } as unknown as Scenario;
        measured.push(await profileScenario(floor, inspector, scenario));
      }
    },
  );
  // The stack floor (bench/stack-floor.ts: the same requests through Express 5, express-openapi-validator and `pg`
  // alone): its stages are what any request path on this stack pays for these requests. Then the contract floor (the
  // same with the contract's steps at their cheapest, bench/contract-floor-steps.ts): what any implementation of the
  // contract on this stack pays.
  const setup = stackFloor as StackFloorSetup;
  try {
    for (const withContract of [false, true]) {
      await withInspected(
        () =>
          startProcess("bench/stack-floor.ts", withContract ? 4615 : 4614, {
            DATABASE_URL: databaseUrl,
            ...setup.env,
            ...(withContract ? { STACK_FLOOR_CONTRACT: "1" } : {}),
          }),
        async (floor, inspector) => {
          for (const scenario of setup.scenarios.filter((s) => wanted.some((id) => s.id === `stack_${id}`))) {
            const id = withContract ? contractFloorId(scenario.id) : scenario.id;
            measured.push(await profileScenario(floor, inspector, { ...scenario, id } as unknown as Scenario));
          }
        },
      );
    }
  } finally {
    setup.cleanup();
  }
});

// One table: a row per stage, a column per scenario, each cell the stage's CPU per request in ms.
const ms = (m: Measured, stage: Stage) => ((m.charges.byStage.get(stage)?.samples ?? 0) / m.charges.busy) * m.cpuPerRequestMs;
const header = `| Stage | ${measured.map((m) => `${m.scenario.id}${m.label ? ` ${m.label}` : ""}`).join(" | ")} |`;
const lines = [
  header,
  `|---|${measured.map(() => "---:").join("|")}|`,
  `| **server CPU per request (ms), profiler off** | ${measured.map((m) => `**${m.cpuPerRequestMs.toFixed(3)}**`).join(" | ")} |`,
  `| req/s, profiler off | ${measured.map((m) => m.requestsPerSecond.toFixed(0)).join(" | ")} |`,
  ...STAGE_ORDER.filter((stage) => measured.some((m) => ms(m, stage) >= 0.0005)).map(
    (stage) => `| ${stage} | ${measured.map((m) => ms(m, stage).toFixed(3)).join(" | ")} |`,
  ),
];
console.log(
  `Per-stage CPU per request (ms; PostgreSQL, ${connections} connections, ${seconds} s per window; ${new Date().toISOString()})\n`,
);
console.log(lines.join("\n"));
const unmapped = new Set(measured.flatMap((m) => [...m.charges.unmappedFiles]));
if (unmapped.size > 0) console.log(`\nserver/ files with no stage (charged to "other server code"): ${[...unmapped].join(", ")}`);
if (detail) {
  for (const m of measured) {
    console.log(`\n${m.scenario.id}${m.label ? ` ${m.label}` : ""}: each stage's libraries (ms)`);
    for (const stage of STAGE_ORDER) {
      const charge = m.charges.byStage.get(stage);
      if (!charge) continue;
      const libraries = [...charge.byLibrary.entries()]
        .sort((a, b) => b[1] - a[1])
        .map(([library, samples]) => `${library} ${((samples / m.charges.busy) * m.cpuPerRequestMs).toFixed(3)}`);
      const functions = [...charge.byFunction.entries()]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 8)
        .map(([where, samples]) => `${where} ${((samples / m.charges.busy) * m.cpuPerRequestMs).toFixed(3)}`);
      console.log(`  ${stage}: ${libraries.join(", ")}\n    top functions: ${functions.join(", ")}`);
    }
  }
}
