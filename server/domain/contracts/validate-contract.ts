// Stage 3: static checks on the compiled project's source, ABI and bytecode.
import type { AuthContext } from "../../context.ts";
import type { Db } from "../../db/open-database.ts";
import { ServiceError } from "../../errors/service-error.ts";
import type { components } from "../../generated/openapi.ts";
import type { Tx } from "../../idempotency/idempotency-store.ts";
import type { ContractArtifact } from "./compile-contract.ts";
import { type CompletedStage, completeStage, failStage, loadRunnableProject } from "./lifecycle.ts";
import { runStaticChecks } from "./static-checks.ts";
import { findTemplate } from "./templates.ts";

type ValidateOutput = components["schemas"]["ValidateOutput"];

export async function validateContract(options: {
  prisma: Db;
  auth: AuthContext;
  projectId: string;
}): Promise<(tx: Tx) => Promise<CompletedStage<ValidateOutput>>> {
  const { prisma, auth, projectId } = options;
  const project = await loadRunnableProject(prisma, auth, projectId, "validate");
  const template = findTemplate(project.template);
  if (!template) throw new TypeError(`unknown template ${project.template}`);
  const checks = runStaticChecks(project.source, project.artifact as unknown as ContractArtifact, template);
  const failed = checks.filter((c) => !c.passed);
  const output: ValidateOutput = { passed: failed.length === 0, checks };
  if (failed.length > 0) {
    throw await failStage(
      prisma,
      project,
      "validate",
      new ServiceError(
        "PRECHECK_FAILED",
        `${failed.length} validation check${failed.length === 1 ? "" : "s"} failed: ${failed.map((c) => c.id).join(", ")}`,
        {
          extensions: { stage: "validate", findings: failed },
        },
      ),
      output,
    );
  }
  return (tx) => completeStage(tx, project, "validate", output);
}
