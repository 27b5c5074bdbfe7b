// GET corridor/workflows/{workflowRunId}: the run and its steps, read-only.
import type { AuthContext } from "../../context.ts";
import type { Queryable } from "../../db/kysely.ts";
import { findOwned } from "../../db/owned-by.ts";
import { ServiceError } from "../../errors/service-error.ts";
import { toWorkflowRunDto, type WorkflowRunDto } from "./workflow-dto.ts";

// A malformed workflowRunId never gets here: the contract's WorkflowRunId pattern refuses it (400 VALIDATION_ERROR).
export async function getWorkflowRun(
  db: Queryable,
  options: {
    auth: AuthContext;
    workflowRunId: string;
    hasQuery: boolean;
    hasBody: boolean;
  },
): Promise<WorkflowRunDto> {
  const { auth, workflowRunId } = options;
  if (options.hasBody) {
    throw new ServiceError("INVALID_INPUT", "This operation takes no request body", {
      errors: [{ path: "/body", message: "must be empty" }],
    });
  }
  if (options.hasQuery) {
    throw new ServiceError("INVALID_INPUT", "This operation takes no query parameters", {
      errors: [{ path: "/query", message: "must be empty" }],
    });
  }
  const run = await findOwned(db, "WorkflowRun", workflowRunId, auth, "Workflow run");
  const steps = await db.selectFrom("WorkflowStep").selectAll().where("runId", "=", run.id).orderBy("position").execute();
  return toWorkflowRunDto(run, steps);
}
