// solc-js, in process. The compiler (a large Wasm/asm.js module) loads on first use; outputs are cached per process by
// the SHA-256 of the standard JSON input, so one source compiles once however many projects share it.
import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import { EVM_VERSION } from "../../chain/evm.ts";

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

interface Solc {
  compile(input: string): string;
  version(): string;
}

export const SOURCE_FILE = "Contract.sol";
const SETTINGS = { optimizer: { enabled: true, runs: 200 }, evmVersion: EVM_VERSION };
const CACHE_LIMIT = 32;
const cache = new Map<string, CompileOutcome>();
let solc: Solc | undefined;

function loadSolc(): Solc {
  solc ??= createRequire(import.meta.url)("solc") as Solc;
  return solc;
}

export function compilerVersion(): string {
  return loadSolc().version();
}

/** Compiles `source` and extracts `contractName`. Synchronous (solc-js is); a few hundred ms for a template. */
export function compileSolidity(source: string, contractName: string): CompileOutcome {
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
  const outcome = run(text, contractName);
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  cache.set(key, outcome);
  return outcome;
}

function run(input: string, contractName: string): CompileOutcome {
  const compiler = loadSolc();
  const output = JSON.parse(compiler.compile(input)) as {
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
      compilerVersion: compiler.version(),
      settings: SETTINGS,
      abi: compiled.abi,
      bytecode: `0x${compiled.evm.bytecode.object}`,
      deployedBytecode: `0x${compiled.evm.deployedBytecode.object}`,
      methodIdentifiers: compiled.evm.methodIdentifiers,
      warnings: messages.filter((m) => m.severity !== "error"),
    },
  };
}
