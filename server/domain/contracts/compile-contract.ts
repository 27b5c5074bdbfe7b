// Stage 2: compiles the project's source (or an edited source sent with the request) with solc-js.
import type { AuthContext } from "../../context.ts";
import { afterProviderCall, type ProviderStep, type UnitOfWork } from "../../db/unit-of-work/index.ts";
import { ServiceError } from "../../errors/service-error.ts";
import type { components } from "../../generated/openapi.ts";
import type { OperationOutcome } from "../../spec/operation-types.ts";
import { type CompilerMessage, compileSolidity } from "./compile-solidity.ts";
import { sha256Hex } from "./generate-contract.ts";
import { completeStage, failStage, loadRunnableProject } from "./lifecycle.ts";

type CompileOutput = components["schemas"]["CompileOutput"];

export interface CompileContractOptions {
  auth: AuthContext;
  projectId: string;
  request: components["schemas"]["CompileContractRequest"];
}

/** The artifact kept on the project for the later stages. */
export interface ContractArtifact {
  compilerVersion: string;
  abi: unknown[];
  bytecode: string;
  deployedBytecode: string;
}

interface Compiled {
  output: CompileOutput;
  artifact: ContractArtifact;
}

const byteLength = (hex: string) => (hex.length - 2) / 2;

/**
 * Two transactions: the first checks the project can compile (and answers a replay); solc then runs on a compiler
 * worker thread with no transaction open (up to seconds of CPU; the event loop keeps serving); the second records the stage (compare-and-set on the
 * project's version) or, when solc reported errors, the failed run.
 */
export async function compileContract(
  uow: UnitOfWork,
  options: CompileContractOptions,
): Promise<ProviderStep<Compiled, OperationOutcome<"compileContract">>> {
  const { auth, projectId, request } = options;
  const project = await loadRunnableProject(uow.tx, auth, projectId, "compile");
  const source = request.source ?? project.source;
  const edited = request.source !== undefined && request.source !== project.source;
  let compilerErrors: CompilerMessage[] | undefined;
  return afterProviderCall({
    async call() {
      const outcome = await compileSolidity(source, project.contractName);
      if (!outcome.ok) {
        compilerErrors = outcome.errors;
        const count = outcome.errors.length;
        const first = outcome.errors[0]?.formattedMessage.split("\n")[0] ?? "";
        throw new ServiceError("COMPILATION_FAILED", `solc reported ${count} error${count === 1 ? "" : "s"}: ${first}`, {
          extensions: { stage: "compile", compilerErrors: outcome.errors },
        });
      }
      const { contract } = outcome;
      const sourceSha256 = edited ? sha256Hex(source) : project.sourceSha256;
      const output: CompileOutput = {
        compilerVersion: contract.compilerVersion,
        settings: contract.settings,
        contractName: project.contractName,
        sourceSha256,
        sourceOrigin: edited ? "edited" : "generated",
        abi: contract.abi as CompileOutput["abi"],
        bytecode: contract.bytecode,
        deployedBytecode: contract.deployedBytecode,
        bytecodeSize: byteLength(contract.bytecode),
        deployedBytecodeSize: byteLength(contract.deployedBytecode),
        methodIdentifiers: contract.methodIdentifiers,
        warnings: contract.warnings,
      };
      const artifact: ContractArtifact = {
        compilerVersion: contract.compilerVersion,
        abi: contract.abi,
        bytecode: contract.bytecode,
        deployedBytecode: contract.deployedBytecode,
      };
      return { output, artifact };
    },
    async onResult(uow2, { output, artifact }) {
      const body = await completeStage(uow2, project, "compile", output, {
        artifact,
        ...(edited ? { source, sourceSha256: output.sourceSha256 } : {}),
      });
      return { status: 200, body };
    },
    async onFailure(uow2, error) {
      if (compilerErrors && error instanceof ServiceError) await failStage(uow2, project, "compile", error, { compilerErrors });
    },
  });
}
