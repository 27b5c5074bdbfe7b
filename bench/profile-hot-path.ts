// `npm run bench:profile`: runs one scenario against Coinplane on PostgreSQL under `node --cpu-prof` and prints where
// the server's main thread spends its time while the load runs: self time by package and by function, and inclusive
// time (the function and what it calls) of the request path's steps. Not part of `npm test`.
// Env: PROFILE_SCENARIO (wallet_get | payment_post | payment_post_keyed | v2_write | v2_replay; default wallet_get), BENCH_SECONDS (default 10).
//
// Only the main thread's profile counts (the compiler workers write their own), and only its samples taken during the
// measured load: start-up, the scenario's setup and the warm-up (first-request compilation of validators) are left out.
// V8 stamps samples with the monotonic clock, as process.hrtime does here, so the window is known to the microsecond.
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { startCoinplane, withPostgresDatabase } from "./coinplane-server.ts";
import { cpuMs, root, stopProcess } from "./processes.ts";
import { prepareScenarios } from "./scenarios.ts";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

const scenarioId = process.env.PROFILE_SCENARIO ?? "wallet_get";
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const profileDir = mkdtempSync(path.join(os.tmpdir(), "coinplane-profile-"));
const nowMicros = () => Number(process.hrtime.bigint() / 1000n);
const window = { from: 0, to: 0 };
/** The server's CPU (user + system, ms) per request over the measured window, to turn the profile's shares into ms. */
let cpuPerRequestMs = Number.NaN;
process.env.BENCH_NODE_FLAGS = `--cpu-prof --cpu-prof-dir=${profileDir}`;
await withPostgresDatabase(async (databaseUrl) => {
  const server = await startCoinplane(databaseUrl, 4610);
  try {
    const scenario = (await prepareScenarios(server.url)).find((s) => s.id === scenarioId);
    if (!scenario) throw new Error(`unknown PROFILE_SCENARIO ${scenarioId}`);
    await autocannon({ url: server.url, connections: 32, duration: 2, requests: scenario.requests });
    window.from = nowMicros();
    const cpuBefore = cpuMs(server.child.pid);
    const r = await autocannon({ url: server.url, connections: 32, duration: seconds, requests: scenario.requests });
    cpuPerRequestMs = (cpuMs(server.child.pid) - cpuBefore) / r.requests.total;
    window.to = nowMicros();
    console.log(
      `${scenario.name}: ${r.requests.average} req/s, p99 ${r.latency.p99} ms, non-2xx ${r.non2xx}, ${cpuPerRequestMs.toFixed(2)} ms server CPU/request (profiler on)`,
    );
  } finally {
    await stopProcess(server.child);
    if (server.child.exitCode !== 0)
      console.error(`server exited with ${server.child.exitCode ?? server.child.signalCode}\n${server.stderr()}`);
  }
});

// CPU.<date>.<time>.<pid>.<thread>.<sequence>.cpuprofile: thread 0 is the main thread.
const file = readdirSync(profileDir).find((f) => /^CPU\.\d+\.\d+\.\d+\.0\.\d+\.cpuprofile$/.test(f));
if (!file) throw new Error(`no main-thread profile written in ${profileDir}`);
const profile = JSON.parse(readFileSync(path.join(profileDir, file), "utf8")) as Profile;

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parentOf = new Map<number, number>();
for (const n of profile.nodes) for (const child of n.children ?? []) parentOf.set(child, n.id);
const where = (n: ProfileNode) => n.callFrame.url.replace(`file://${root}/`, "");
const functionKey = (n: ProfileNode) => `${n.callFrame.functionName || "(anonymous)"} ${where(n)}:${n.callFrame.lineNumber + 1}`;
const packageKey = (n: ProfileNode) =>
  /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(where(n))?.[1] ??
  (where(n).startsWith("server/") ? where(n).split("/").slice(0, 2).join("/") : where(n) || n.callFrame.functionName);

// The parts of a request that bench/results.md's "where the time goes" table names, by the leaf's package or function.
const PARTS: [string, (leaf: ProfileNode, pkg: string) => boolean][] = [
  [
    "socket writes (writev and friends: each database round trip and each response)",
    (n) => /^write(v|Buffer|String|Utf8String)$/.test(n.callFrame.functionName),
  ],
  ["garbage collector", (n) => n.callFrame.functionName === "(garbage collector)"],
  ["express-openapi-validator + ajv", (_n, pkg) => /^(express-openapi-validator|ajv|ajv-formats)$/.test(pkg)],
  ["pg driver (protocol, row parsing)", (_n, pkg) => /^(pg|pg-protocol|pg-pool|pg-types|postgres-.*)$/.test(pkg)],
  ["Kysely (building and compiling queries)", (_n, pkg) => pkg === "kysely"],
  ["log lines (pino)", (_n, pkg) => /^(pino|sonic-boom|pino-std-serializers)$/.test(pkg)],
  ["crypto (key hash, fingerprint, ids)", (_n, pkg) => pkg.startsWith("node:internal/crypto")],
  ["our code (server/: middleware, routes, domain, unit of work)", (_n, pkg) => pkg.startsWith("server/")],
  ["Node HTTP + Express, router, body-parser and other libraries", (n, pkg) => pkg !== n.callFrame.functionName],
  ["V8 and libuv internals (microtasks, program)", () => true],
];
const selfByPart = new Map<string, number>();
const selfByFunction = new Map<string, number>();
const selfByPackage = new Map<string, number>();
const inclusive = new Map<string, number>();
const add = (m: Map<string, number>, key: string) => m.set(key, (m.get(key) ?? 0) + 1);
let busy = 0;
let idle = 0;
let at = profile.startTime;
profile.samples.forEach((id, i) => {
  at += profile.timeDeltas[i] ?? 0;
  if (at < window.from || at > window.to) return;
  const leaf = byId.get(id) as ProfileNode;
  if (leaf.callFrame.functionName === "(idle)") {
    idle++;
    return;
  }
  busy++;
  add(selfByFunction, functionKey(leaf));
  add(selfByPackage, packageKey(leaf));
  add(selfByPart, PARTS.find(([, matches]) => matches(leaf, packageKey(leaf)))?.[0] ?? "other");
  const seen = new Set<string>();
  for (let node: number | undefined = id; node !== undefined; node = parentOf.get(node)) {
    const key = functionKey(byId.get(node) as ProfileNode);
    if (!seen.has(key)) {
      seen.add(key);
      add(inclusive, key);
    }
  }
});

const top = (m: Map<string, number>, k: number, keep: (key: string) => boolean = () => true) =>
  [...m.entries()]
    .filter(([key]) => keep(key))
    .sort((a, b) => b[1] - a[1])
    .slice(0, k)
    .map(([key, hits]) => `${((hits / busy) * 100).toFixed(1).padStart(5)}%  ${key}`);
console.log(`\nProfile: ${path.join(profileDir, file)}; ${busy} busy samples in the measured window (${idle} idle).`);
const ms = (hits: number) => ((hits / busy) * cpuPerRequestMs).toFixed(3);
console.log(
  `\nBy part of the request (self time; ms = share × the ${cpuPerRequestMs.toFixed(2)} ms of CPU per request above):\n${PARTS.map(
    ([part]) => `${(((selfByPart.get(part) ?? 0) / busy) * 100).toFixed(1).padStart(5)}%  ${ms(selfByPart.get(part) ?? 0)} ms  ${part}`,
  ).join("\n")}`,
);
console.log(`\nSelf time by package/folder:\n${top(selfByPackage, 20).join("\n")}`);
console.log(`\nTop functions by self time:\n${top(selfByFunction, 30).join("\n")}`);
// Inclusive time of our code and the frameworks' request-path entry points. A middleware's figure includes the steps
// it calls synchronously (Express runs the next middleware from inside `next()`), so read them as nested, not summed.
const STEPS =
  /server\/|express-openapi-validator|helmet|body-parser|pino|kysely\/dist\/esm\/query-(builder|compiler)|pg\/lib\/(client|query)/;
console.log(`\nInclusive time (server/ and request-path libraries):\n${top(inclusive, 50, (key) => STEPS.test(key)).join("\n")}`);
