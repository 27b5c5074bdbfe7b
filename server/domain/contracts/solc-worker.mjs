// A compiler worker thread (server/lib/worker-pool.ts runs it; compile-solidity.ts sends the jobs). Plain JavaScript on
// purpose: a worker started by `node --import tsx` need not load TypeScript. It loads solc-js once, then answers each
// message `{ id, input }` (a standard JSON input string) with `{ id, result: { output, version } }` (solc's standard JSON
// output string) or `{ id, error }`. One job at a time; solc-js is synchronous, which is the point of running it here.
//
// solc is WebAssembly: its linear memory lies outside the V8 heap that `resourceLimits` caps, and it grows but never
// shrinks. So after each job the worker compares it with `workerData.wasmMemoryMb` and, above it, answers with
// `retire: true`: the pool then replaces the worker instead of giving it another job.
import { createRequire } from "node:module";
import { setPriority } from "node:os";
import { parentPort, workerData } from "node:worker_threads";

// Below the event loop's priority (on Linux niceness is per thread): when the compiler and the request path compete
// for a core, requests win. Where that is not allowed, the worker runs at normal priority.
try {
  setPriority(10);
} catch {
  // not permitted here; nothing to do
}

const require = createRequire(import.meta.url);
const soljson = require("solc/soljson.js");
const solc = require("solc/wrapper")(soljson);
const version = solc.version();
const wasmLimitBytes = (workerData?.wasmMemoryMb ?? Number.POSITIVE_INFINITY) * 1024 * 1024;

parentPort?.on("message", ({ id, input }) => {
  let reply;
  try {
    reply = { id, result: { output: solc.compile(input), version } };
  } catch (error) {
    reply = { id, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort?.postMessage({ ...reply, retire: soljson.HEAP8.buffer.byteLength > wasmLimitBytes });
});
