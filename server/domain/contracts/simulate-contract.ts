// Stage 4: runs the token's key flows (mint, transfer, burn, pause, blocklist) on a fresh in-process EVM.
import type { AuthContext } from "../../context.ts";
import { afterProviderCall, type ProviderStep, type UnitOfWork } from "../../db/unit-of-work/index.ts";
import { ServiceError } from "../../errors/service-error.ts";
import type { OperationOutcome } from "../../spec/operation-types.ts";
import type { ContractArtifact } from "./compile-contract.ts";
import { completeStage, failStage, loadRunnableProject } from "./lifecycle.ts";
import { type SimulateOutput, simulateToken } from "./simulation.ts";

/**
 * Two transactions, like compile: the first checks the project can be simulated (and answers a replay); the flows then
 * run on a fresh EVM with no transaction open (hundreds of ms of CPU, more on a cold VM); the second records the stage
 * (compare-and-set on the project's version) or, when a flow failed, the failed run.
 */
export async function simulateContract(
  uow: UnitOfWork,
  options: {
    auth: AuthContext;
    projectId: string;
  },
): Promise<ProviderStep<SimulateOutput, OperationOutcome<"simulateContract">>> {
  const { auth, projectId } = options;
  const project = await loadRunnableProject(uow.tx, auth, projectId, "simulate");
  let failedOutput: SimulateOutput | undefined;
  return afterProviderCall({
    async call() {
      const output = await simulateToken({
        artifact: project.artifact as ContractArtifact,
        asset: project.asset,
        tokenName: project.tokenName,
        decimals: project.decimals,
      });
      if (!output.passed) {
        failedOutput = output;
        const failed = output.flows.filter((f) => !f.passed);
        throw new ServiceError(
          "PRECHECK_FAILED",
          `Simulation failed in flow${failed.length === 1 ? "" : "s"} ${failed.map((f) => f.flow).join(", ")}`,
          {
            extensions: { stage: "simulate", findings: failed },
          },
        );
      }
      return output;
    },
    async onResult(uow2, output) {
      return { status: 200, body: await completeStage(uow2, project, "simulate", output) };
    },
    async onFailure(uow2, error) {
      if (failedOutput && error instanceof ServiceError) await failStage(uow2, project, "simulate", error, failedOutput);
    },
  });
}
