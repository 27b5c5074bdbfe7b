// Stage 2: compiles the project's source (or an edited source sent with the request) with solc-js.
import type { AuthContext } from "../../context.ts";
import type { Db } from "../../db/open-database.ts";
import { ServiceError } from "../../errors/service-error.ts";
import type { components } from "../../generated/openapi.ts";
import type { Tx } from "../../idempotency/idempotency-store.ts";
import { compileSolidity } from "./compile-solidity.ts";
import { sha256Hex } from "./generate-contract.ts";
import { type CompletedStage, completeStage, failStage, loadRunnableProject } from "./lifecycle.ts";

type CompileOutput = components["schemas"]["CompileOutput"];

export interface CompileContractOptions {
  prisma: Db;
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

const byteLength = (hex: string) => (hex.length - 2) / 2;

export async function compileContract(options: CompileContractOptions): Promise<(tx: Tx) => Promise<CompletedStage<CompileOutput>>> {
  const { prisma, auth, projectId, request } = options;
  const project = await loadRunnableProject(prisma, auth, projectId, "compile");
  const source = request.source ?? project.source;
  const edited = request.source !== undefined && request.source !== project.source;
  const outcome = compileSolidity(source, project.contractName);
  if (!outcome.ok) {
    const count = outcome.errors.length;
    const first = outcome.errors[0]?.formattedMessage.split("\n")[0] ?? "";
    throw await failStage(
      prisma,
      project,
      "compile",
      new ServiceError("COMPILATION_FAILED", `solc reported ${count} error${count === 1 ? "" : "s"}: ${first}`, {
        extensions: { stage: "compile", compilerErrors: outcome.errors },
      }),
      { compilerErrors: outcome.errors },
    );
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
  return (tx) => completeStage(tx, project, "compile", output, { artifact, ...(edited ? { source, sourceSha256 } : {}) });
}
