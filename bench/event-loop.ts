// Event-loop delay while contracts compile (issue 14: nothing blocks the event loop), for bench/results.md: the same
// compiles through the server's compiler worker pool (compileSolidity) and, for comparison, with solc-js called on the
// event loop as the server did before. perf_hooks.monitorEventLoopDelay of this process, 10 ms resolution.
import { createRequire } from "node:module";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { EVM_VERSION } from "../server/chain/evm.ts";
import { closeCompiler, compileSolidity, configureCompiler } from "../server/domain/contracts/compile-solidity.ts";
import { fiatBackedStablecoinSource } from "../server/domain/contracts/fiat-backed-stablecoin.ts";

export interface EventLoopDelay {
  compiles: number;
  elapsedMs: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

export interface CompileEventLoop {
  workers: number;
  pool: EventLoopDelay;
  onEventLoop: EventLoopDelay;
}

const token = (asset: string) => {
  const contractName = `${asset}Stablecoin`;
  return { contractName, source: fiatBackedStablecoinSource({ contractName, tokenName: `${asset} Stablecoin`, asset, decimals: 6 }) };
};

async function measure(compiles: number, work: (i: number) => Promise<unknown>): Promise<EventLoopDelay> {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  const started = performance.now();
  await Promise.all(Array.from({ length: compiles }, (_, i) => work(i)));
  const elapsedMs = performance.now() - started;
  // One more turn of the timers phase, so the histogram records the delay of the last stall too.
  await new Promise((resolve) => setTimeout(resolve, 20));
  histogram.disable();
  return { compiles, elapsedMs, p50Ms: histogram.percentile(50) / 1e6, p99Ms: histogram.percentile(99) / 1e6, maxMs: histogram.max / 1e6 };
}

/** `compiles` distinct template sources (the per-process cache answers none), after one warm-up compile each way. */
export async function measureCompileEventLoop(compiles = 4, workers = 1): Promise<CompileEventLoop> {
  configureCompiler({ workers, timeoutMs: 120_000, workerMemoryMb: 512 });
  try {
    const warm = token("BWARM");
    await compileSolidity(warm.source, warm.contractName);
    const pool = await measure(compiles, async (i) => {
      const t = token(`BPOOL${i}`);
      const outcome = await compileSolidity(t.source, t.contractName);
      if (!outcome.ok) throw new Error(`compile failed: ${JSON.stringify(outcome.errors)}`);
    });
    const solc = createRequire(import.meta.url)("solc") as { compile(input: string): string };
    const input = (t: { source: string }) =>
      JSON.stringify({
        language: "Solidity",
        sources: { "Contract.sol": { content: t.source } },
        settings: {
          optimizer: { enabled: true, runs: 200 },
          evmVersion: EVM_VERSION,
          outputSelection: { "*": { "*": ["evm.bytecode.object"] } },
        },
      });
    solc.compile(input(warm));
    // One compile per timer callback, as concurrent requests would interleave them; the histogram's own timer runs in
    // between and records each stall.
    const onEventLoop = await measure(
      compiles,
      (i) => new Promise((resolve) => setTimeout(() => resolve(solc.compile(input(token(`BLOOP${i}`)))), 1 + i * 5)),
    );
    return { workers, pool, onEventLoop };
  } finally {
    await closeCompiler();
  }
}
