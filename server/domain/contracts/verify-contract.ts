// Stage 6: the runtime code at the deployed address must equal the compiled runtime bytecode, byte for byte.
import { type Hex, keccak256 } from "viem";
import { sandboxChainFor } from "../../chain/sandbox-chain.ts";
import { sandboxChainLogIn } from "../../db/sandbox-chain-log-store.ts";
import type { UnitOfWork } from "../../db/unit-of-work/index.ts";
import { ServiceError } from "../../errors/service-error.ts";
import type { components } from "../../generated/openapi.ts";
import type { ContractArtifact } from "./compile-contract.ts";
import { type CompletedStage, completeStage, failStage, loadRunnableProject, type OnChainStageOptions } from "./lifecycle.ts";

type VerifyOutput = components["schemas"]["VerifyOutput"];
type DeployOutput = components["schemas"]["DeployOutput"];

/** One transaction: the sandbox chain is in process, and its log is read through the request's transaction. */
export async function verifyContract(uow: UnitOfWork, options: OnChainStageOptions): Promise<CompletedStage<VerifyOutput>> {
  const { chainLog, auth, projectId } = options;
  const project = await loadRunnableProject(uow.tx, auth, projectId, "verify");
  const artifact = project.artifact as ContractArtifact;
  const deployment = project.deployment as DeployOutput;
  const { code, blockNumber } = await sandboxChainFor(chainLog).read(
    async (view) => ({ code: await view.getCode(deployment.contractAddress), blockNumber: view.blockNumber }),
    sandboxChainLogIn(uow),
  );
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
      uow,
      project,
      "verify",
      new ServiceError("PRECHECK_FAILED", `The code at ${deployment.contractAddress} differs from the compiled runtime bytecode`, {
        extensions: { stage: "verify", findings: [output] },
      }),
      output,
    );
  }
  return completeStage(uow, project, "verify", output);
}
