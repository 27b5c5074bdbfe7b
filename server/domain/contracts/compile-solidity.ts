// solc-js, off the event loop: each compile runs in a bounded pool of worker threads (server/lib/worker-pool.ts, the
// worker is solc-worker.mjs) with a timeout and a memory cap (COMPILE_WORKERS, COMPILE_TIMEOUT_MS,
// COMPILE_WORKER_MEMORY_MB). solc-js is synchronous and takes from a few hundred ms to seconds of CPU; on the event loop
// every other request, /healthz included, would wait for it. Outcomes (success or compiler errors, never a timeout or a
// crash) are cached per process by the SHA-256 of the standard JSON input, so one source compiles once however many
// projects share it.
import { createHash } from "node:crypto";
import { EVM_VERSION } from "../../chain/evm.ts";
import { type Config, loadConfig } from "../../config.ts";
import { ServiceError } from "../../errors/service-error.ts";
import { WorkerJobError, WorkerPool, WorkerPoolError } from "../../lib/worker-pool.ts";

export interface CompilerMessage {
  severity: "error" | "warning" | "info";
  type: string;
  message: string;
  /** solc's formatted message with source location. */
  formattedMessage: string;
}

export interface CompiledContract {
  compilerVersion: string;
  settings: { optimizer: { enabled: boolean; runs: number }; evmVersion: string };
  abi: unknown[];
  bytecode: string;
  deployedBytecode: string;
  methodIdentifiers: Record<string, string>;
  warnings: CompilerMessage[];
}

export type CompileOutcome = { ok: true; contract: CompiledContract } | { ok: false; errors: CompilerMessage[] };

/** What the worker answers: solc's standard JSON output and the compiler's version. */
interface WorkerResult {
  output: string;
  version: string;
}

export const SOURCE_FILE = "Contract.sol";
const SETTINGS = { optimizer: { enabled: true, runs: 200 }, evmVersion: EVM_VERSION };
const CACHE_LIMIT = 32;
const cache = new Map<string, CompileOutcome>();
const WORKER_SCRIPT = new URL("./solc-worker.mjs", import.meta.url);

let settings: Config["compile"] | undefined;
let pool: WorkerPool<string, WorkerResult> | undefined;

/**
 * Sets the pool's size, timeout and memory cap for the next pool started (main.ts and tests, from their config).
 * Without it the defaults apply: the domain never reads the environment itself (only server/config.ts does).
 */
export function configureCompiler(compile: Config["compile"]): void {
  settings = compile;
}

const compileSettings = (): Config["compile"] => settings ?? loadConfig({}).compile;

function compilerPool(): WorkerPool<string, WorkerResult> {
  if (!pool) {
    const { workers, timeoutMs, workerMemoryMb } = compileSettings();
    pool = new WorkerPool({
      script: WORKER_SCRIPT,
      size: workers,
      timeoutMs,
      // The V8 heap is capped; solc's Wasm memory is outside that cap, so a worker whose Wasm memory grew past the same
      // figure is retired after its compile (solc-worker.mjs).
      resourceLimits: { maxOldGenerationSizeMb: workerMemoryMb },
      workerData: { wasmMemoryMb: workerMemoryMb },
    });
  }
  return pool;
}

/** The compiler pool's workers and queue (GET /metrics); all zero before the first compile starts the pool. */
export function compilerStats(): { size: number; busy: number; queued: number } {
  const stats = pool?.stats();
  return { size: stats?.size ?? compileSettings().workers, busy: stats?.busy ?? 0, queued: stats?.queued ?? 0 };
}

/** Stops the compiler workers (server shutdown, tests closing their server). A later compile starts a new pool. */
export async function closeCompiler(): Promise<void> {
  const closing = pool;
  pool = undefined;
  await closing?.close();
}

/**
 * Compiles `source` and extracts `contractName` on a compiler worker; a few hundred ms for a template. Compiler errors
 * are an outcome; a compile that does not finish (timeout, worker out of memory or crashed, shutting down) throws
 * 503 COMPILER_UNAVAILABLE, which nothing records, so the same request can be retried.
 */
export async function compileSolidity(source: string, contractName: string): Promise<CompileOutcome> {
  const input = {
    language: "Solidity",
    sources: { [SOURCE_FILE]: { content: source } },
    settings: {
      ...SETTINGS,
      outputSelection: {
        [SOURCE_FILE]: { [contractName]: ["abi", "evm.bytecode.object", "evm.deployedBytecode.object", "evm.methodIdentifiers"] },
      },
    },
  };
  const text = JSON.stringify(input);
  const key = createHash("sha256").update(text).digest("hex");
  const cached = cache.get(key);
  if (cached) return cached;
  const outcome = extract(await runOnWorker(text), contractName);
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  cache.set(key, outcome);
  return outcome;
}

async function runOnWorker(input: string): Promise<WorkerResult> {
  try {
    return await compilerPool().run(input);
  } catch (error) {
    if (error instanceof WorkerPoolError) {
      const detail =
        error.reason === "timeout"
          ? `The compiler did not finish within ${compileSettings().timeoutMs} ms; nothing was recorded`
          : error.reason === "closed"
            ? "The server is shutting down; nothing was recorded"
            : "The compiler stopped (out of memory or crashed); nothing was recorded";
      throw new ServiceError("COMPILER_UNAVAILABLE", detail, {
        retryAfterSeconds: 5,
        extensions: { stage: "compile" },
        cause: error,
      });
    }
    if (error instanceof WorkerJobError) throw new Error(`solc failed: ${error.message}`, { cause: error });
    throw error;
  }
}

function extract({ output: text, version }: WorkerResult, contractName: string): CompileOutcome {
  const output = JSON.parse(text) as {
    errors?: Array<{ severity: string; type: string; message: string; formattedMessage?: string }>;
    contracts?: Record<
      string,
      Record<
        string,
        {
          abi: unknown[];
          evm: { bytecode: { object: string }; deployedBytecode: { object: string }; methodIdentifiers: Record<string, string> };
        }
      >
    >;
  };
  const messages: CompilerMessage[] = (output.errors ?? []).map((e) => ({
    severity: e.severity === "error" ? "error" : e.severity === "warning" ? "warning" : "info",
    type: e.type,
    message: e.message,
    formattedMessage: (e.formattedMessage ?? e.message).trim(),
  }));
  const errors = messages.filter((m) => m.severity === "error");
  if (errors.length > 0) return { ok: false, errors };
  const compiled = output.contracts?.[SOURCE_FILE]?.[contractName];
  if (!compiled?.evm.bytecode.object) {
    return {
      ok: false,
      errors: [
        {
          severity: "error",
          type: "ContractNotFound",
          message: `The source defines no deployable contract named ${contractName}`,
          formattedMessage: `ContractNotFound: the source defines no deployable contract named ${contractName}`,
        },
      ],
    };
  }
  return {
    ok: true,
    contract: {
      compilerVersion: version,
      settings: SETTINGS,
      abi: compiled.abi,
      bytecode: `0x${compiled.evm.bytecode.object}`,
      deployedBytecode: `0x${compiled.evm.deployedBytecode.object}`,
      methodIdentifiers: compiled.evm.methodIdentifiers,
      warnings: messages.filter((m) => m.severity !== "error"),
    },
  };
}
