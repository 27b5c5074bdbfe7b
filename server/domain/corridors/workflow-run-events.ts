// The events of a corridor workflow run, with the run as GET corridor/workflows/{id} answers it.
import type { UnitOfWork } from "../../db/unit-of-work/index.ts";
import { emitEvent } from "../events/emit-event.ts";
import type { EventType } from "../events/event-types.ts";
import { toWorkflowRunDto, type WorkflowRunRow, type WorkflowStepRow } from "./workflow-dto.ts";

export function emitWorkflowRunEvent(
  uow: UnitOfWork,
  type: EventType & `workflow_run.${string}`,
  run: WorkflowRunRow,
  steps: WorkflowStepRow[],
): void {
  emitEvent(uow, {
    organizationId: run.organizationId,
    environment: run.environment,
    type,
    resourceId: run.id,
    data: toWorkflowRunDto(run, steps),
    simulated: run.simulated,
  });
}

/** The events of a dispatched step's outcome: `started` when the run left `queued`, then `completed` or `failed` when it
 * ended (a step retried later, or a run still running, emits nothing more). */
export function emitWorkflowRunMoves(
  uow: UnitOfWork,
  { before, after, steps }: { before: WorkflowRunRow; after: WorkflowRunRow; steps: WorkflowStepRow[] },
): void {
  if (before.status === "queued" && after.status !== "queued") emitWorkflowRunEvent(uow, "workflow_run.started", after, steps);
  if (after.status !== before.status && after.status === "completed") emitWorkflowRunEvent(uow, "workflow_run.completed", after, steps);
  if (after.status !== before.status && after.status === "failed") emitWorkflowRunEvent(uow, "workflow_run.failed", after, steps);
}
