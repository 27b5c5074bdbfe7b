// Stage 4: runs the token's key flows (mint, transfer, burn, pause, blocklist) on a fresh in-process EVM.
import type { AuthContext } from "../../context.ts";
import type { Db } from "../../db/open-database.ts";
import { ServiceError } from "../../errors/service-error.ts";
import type { Tx } from "../../idempotency/idempotency-store.ts";
import type { ContractArtifact } from "./compile-contract.ts";
import { type CompletedStage, completeStage, failStage, loadRunnableProject } from "./lifecycle.ts";
import { type SimulateOutput, simulateToken } from "./simulation.ts";

export async function simulateContract(options: {
  prisma: Db;
  auth: AuthContext;
  projectId: string;
}): Promise<(tx: Tx) => Promise<CompletedStage<SimulateOutput>>> {
  const { prisma, auth, projectId } = options;
  const project = await loadRunnableProject(prisma, auth, projectId, "simulate");
  const output = await simulateToken({
    artifact: project.artifact as unknown as ContractArtifact,
    asset: project.asset,
    tokenName: project.tokenName,
    decimals: project.decimals,
  });
  if (!output.passed) {
    const failed = output.flows.filter((f) => !f.passed);
    throw await failStage(
      prisma,
      project,
      "simulate",
      new ServiceError(
        "PRECHECK_FAILED",
        `Simulation failed in flow${failed.length === 1 ? "" : "s"} ${failed.map((f) => f.flow).join(", ")}`,
        {
          extensions: { stage: "simulate", findings: failed },
        },
      ),
      output,
    );
  }
  return (tx) => completeStage(tx, project, "simulate", output);
}
