// Stage 6: the runtime code at the deployed address must equal the compiled runtime bytecode, byte for byte.
import { type Hex, keccak256 } from "viem";
import { sandboxChainFor } from "../../chain/sandbox-chain.ts";
import type { AuthContext } from "../../context.ts";
import type { Db } from "../../db/open-database.ts";
import { ServiceError } from "../../errors/service-error.ts";
import type { components } from "../../generated/openapi.ts";
import type { Tx } from "../../idempotency/idempotency-store.ts";
import type { ContractArtifact } from "./compile-contract.ts";
import { type CompletedStage, completeStage, failStage, loadRunnableProject } from "./lifecycle.ts";

type VerifyOutput = components["schemas"]["VerifyOutput"];
type DeployOutput = components["schemas"]["DeployOutput"];

export async function verifyContract(options: {
  prisma: Db;
  auth: AuthContext;
  projectId: string;
}): Promise<(tx: Tx) => Promise<CompletedStage<VerifyOutput>>> {
  const { prisma, auth, projectId } = options;
  const project = await loadRunnableProject(prisma, auth, projectId, "verify");
  const artifact = project.artifact as unknown as ContractArtifact;
  const deployment = project.deployment as unknown as DeployOutput;
  const { code, blockNumber } = await sandboxChainFor(prisma).read(async (view) => ({
    code: await view.getCode(deployment.contractAddress),
    blockNumber: view.blockNumber,
  }));
  const compiled = artifact.deployedBytecode.toLowerCase() as Hex;
  const output: VerifyOutput = {
    chain: deployment.chain,
    contractAddress: deployment.contractAddress,
    blockNumber,
    match: code.toLowerCase() === compiled,
    compiledCodeHash: keccak256(compiled),
    deployedCodeHash: keccak256(code),
    runtimeBytecodeSize: (code.length - 2) / 2,
  };
  if (!output.match) {
    throw await failStage(
      prisma,
      project,
      "verify",
      new ServiceError("PRECHECK_FAILED", `The code at ${deployment.contractAddress} differs from the compiled runtime bytecode`, {
        extensions: { stage: "verify", findings: [output] },
      }),
      output,
    );
  }
  return (tx) => completeStage(tx, project, "verify", output);
}
