// Stage 3: static checks on the compiled project's source, ABI and bytecode.
import type { AuthContext } from "../../context.ts";
import type { UnitOfWork } from "../../db/unit-of-work/index.ts";
import { ServiceError } from "../../errors/service-error.ts";
import type { components } from "../../generated/openapi.ts";
import type { ContractArtifact } from "./compile-contract.ts";
import { type CompletedStage, completeStage, failStage, loadRunnableProject } from "./lifecycle.ts";
import { runStaticChecks } from "./static-checks.ts";
import { findTemplate } from "./templates.ts";

type ValidateOutput = components["schemas"]["ValidateOutput"];

export async function validateContract(
  uow: UnitOfWork,
  options: {
    auth: AuthContext;
    projectId: string;
  },
): Promise<CompletedStage<ValidateOutput>> {
  const { auth, projectId } = options;
  const project = await loadRunnableProject(uow.tx, auth, projectId, "validate");
  const template = findTemplate(project.template);
  if (!template) throw new TypeError(`unknown template ${project.template}`);
  // Regular expressions over the source and the ABI: milliseconds, so they run in the transaction.
  const checks = runStaticChecks(project.source, project.artifact as ContractArtifact, template);
  const failed = checks.filter((c) => !c.passed);
  const output: ValidateOutput = { passed: failed.length === 0, checks };
  if (failed.length > 0) {
    throw await failStage(
      uow,
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
  return completeStage(uow, project, "validate", output);
}
