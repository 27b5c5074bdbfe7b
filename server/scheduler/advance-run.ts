// Advances one claimed workflow run by its next pending step, inside the dispatcher's transaction: the step's effect,
// its outcome and the run's next state commit together.
//
// Step outcome → state:
//   succeeded            → step succeeded; the run is `running` and due again now, or `completed` after the last step
//   transient (retryable) → step back to `pending` with the error; run due at now + 30 s × 2^(attempts−1)
//   permanent, or transient on attempt 5 → step `failed`, later steps `skipped`, run `failed`
// `rehearse_with_failures`: the first attempt of every step fails with PROVIDER_TIMEOUT before any provider call.

import { compareAndSet } from "../db/compare-and-set.ts";
import type { Tx } from "../db/kysely.ts";
import type { UnitOfWork } from "../db/unit-of-work/index.ts";
import { runStep, type StepInput, type StepOutcome } from "../domain/corridors/run-step.ts";
import type { StepName, WorkflowRunRow, WorkflowStepRow } from "../domain/corridors/workflow-dto.ts";
import { emitWorkflowRunMoves } from "../domain/corridors/workflow-run-events.ts";

export const MAX_ATTEMPTS = 5;
export const RETRY_BASE_MS = 30_000;

export interface DispatchedStep {
  workflowRunId: string;
  step: StepName;
  status: "pending" | "running" | "succeeded" | "failed" | "skipped";
}

export function retryDelayMs(attempts: number): number {
  return RETRY_BASE_MS * 2 ** (attempts - 1);
}

const stepsOf = (tx: Tx, runId: string) =>
  tx.selectFrom("WorkflowStep").selectAll().where("runId", "=", runId).orderBy("position").execute();

/** Advances `run` in the dispatcher's unit of work (server/db/background-unit-of-work.ts): its events are written with
 * the unit of work's deferred rows, at the dispatcher's clock. */
export async function advanceRun(uow: UnitOfWork, run: WorkflowRunRow): Promise<DispatchedStep | null> {
  const { tx, now } = uow;
  const steps = await stepsOf(tx, run.id);
  const step = steps.find((s) => s.status === "pending");
  if (!step) {
    // Nothing left to run (a run is completed with its last step); settle it rather than claim it forever.
    const settled = await tx
      .updateTable("WorkflowRun")
      .set({ status: "completed", nextRunAt: null, version: run.version + 1, updatedAt: now })
      .where("id", "=", run.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    emitWorkflowRunMoves(uow, { before: run, after: settled, steps });
    return null;
  }
  const outputs: StepInput["outputs"] = {};
  for (const s of steps) if (s.status === "succeeded" && s.output) outputs[s.name as StepName] = s.output as Record<string, unknown>;

  const attempts = step.attempts + 1;
  let outcome: StepOutcome;
  if (run.executionMode === "rehearse_with_failures" && step.attempts === 0) {
    outcome = {
      kind: "failed",
      retryable: true,
      code: "PROVIDER_TIMEOUT",
      message: "The simulated provider did not answer in time.",
      provider: step.provider,
      simulated: step.simulated,
    };
  } else {
    outcome = await runStep(uow, {
      name: step.name as StepName,
      run,
      request: run.request as StepInput["request"],
      outputs,
      stepKey: step.stepKey,
    });
  }
  return recordOutcome(uow, run, steps, step, attempts, outcome);
}

async function recordOutcome(
  uow: UnitOfWork,
  run: WorkflowRunRow,
  steps: WorkflowStepRow[],
  step: WorkflowStepRow,
  attempts: number,
  outcome: StepOutcome,
): Promise<DispatchedStep> {
  const { tx, now } = uow;
  const finishedAt = new Date();
  const common = {
    attempts,
    provider: outcome.provider ?? step.provider,
    simulated: outcome.simulated,
    startedAt: now,
    finishedAt,
    updatedAt: finishedAt,
  };
  let stepStatus: DispatchedStep["status"];
  const changed: WorkflowStepRow[] = [];
  let runUpdate: { status: string; nextRunAt: Date | null };
  if (outcome.kind === "succeeded") {
    stepStatus = "succeeded";
    const last = steps.every((s) => s.id === step.id || s.status === "succeeded" || s.status === "skipped");
    runUpdate = last ? { status: "completed", nextRunAt: null } : { status: "running", nextRunAt: finishedAt };
    // The error of an earlier attempt stays on record.
    changed.push(await guardedStepUpdate(tx, step, { ...common, status: "succeeded", output: JSON.stringify(outcome.output) }));
  } else if (outcome.retryable && attempts < MAX_ATTEMPTS) {
    stepStatus = "pending";
    runUpdate = { status: "running", nextRunAt: new Date(finishedAt.getTime() + retryDelayMs(attempts)) };
    changed.push(await guardedStepUpdate(tx, step, { ...common, status: "pending", error: JSON.stringify(errorOf(outcome, true)) }));
  } else {
    stepStatus = "failed";
    const message = outcome.retryable ? `${outcome.message} (gave up after ${attempts} attempts)` : outcome.message;
    runUpdate = { status: "failed", nextRunAt: null };
    changed.push(
      await guardedStepUpdate(tx, step, { ...common, status: "failed", error: JSON.stringify({ ...errorOf(outcome, false), message }) }),
    );
    const skipped = await tx
      .updateTable("WorkflowStep")
      .set({ status: "skipped", updatedAt: finishedAt })
      .where("runId", "=", run.id)
      .where("position", ">", step.position)
      .where("status", "=", "pending")
      .returningAll()
      .execute();
    changed.push(...skipped);
  }
  const updated = await compareAndSet(tx, "WorkflowRun", run, {
    ...runUpdate,
    simulated: run.simulated || outcome.simulated,
    updatedAt: finishedAt,
  });
  if (!updated) throw new Error(`workflow run ${run.id} changed while it was claimed`);
  const byId = new Map(changed.map((s) => [s.id, s]));
  // Dated when the step finished, as the run and step rows are (the unit of work's clock is when the dispatch began).
  emitWorkflowRunMoves(uow.at(finishedAt), { before: run, after: updated, steps: steps.map((s) => byId.get(s.id) ?? s) });
  return { workflowRunId: run.id, step: step.name as StepName, status: stepStatus };
}

/** Records a dispatch that crashed before its outcome could be recorded (its transaction rolled back, so no effect
 * committed) as a transient attempt, so a persistently failing run backs off and ends `failed` after 5 attempts. */
export async function recordDispatchError(uow: UnitOfWork, runId: string): Promise<DispatchedStep | null> {
  const { tx } = uow;
  const run = await tx.selectFrom("WorkflowRun").selectAll().where("id", "=", runId).forUpdate().executeTakeFirstOrThrow();
  if (run.status !== "queued" && run.status !== "running") return null;
  const steps = await stepsOf(tx, runId);
  const step = steps.find((s) => s.status === "pending");
  if (!step) return null;
  const outcome: StepOutcome = {
    kind: "failed",
    retryable: true,
    code: "DISPATCH_ERROR",
    message: "The step could not be dispatched; nothing was applied.",
    provider: step.provider,
    simulated: step.simulated,
  };
  return recordOutcome(uow, run, steps, step, step.attempts + 1, outcome);
}

const errorOf = (outcome: Extract<StepOutcome, { kind: "failed" }>, retryable: boolean) => ({
  code: outcome.code,
  message: outcome.message.slice(0, 500),
  retryable,
});

type StepChanges = Partial<
  Pick<WorkflowStepRow, "attempts" | "provider" | "simulated" | "startedAt" | "finishedAt" | "updatedAt" | "status">
> & {
  output?: string;
  error?: string;
};

/** Compare-and-set on the attempt count: a second dispatcher that somehow reached the same attempt changes nothing. */
async function guardedStepUpdate(tx: Tx, step: WorkflowStepRow, changes: StepChanges): Promise<WorkflowStepRow> {
  const updated = await tx
    .updateTable("WorkflowStep")
    .set(changes)
    .where("id", "=", step.id)
    .where("status", "=", "pending")
    .where("attempts", "=", step.attempts)
    .returningAll()
    .executeTakeFirst();
  if (!updated) throw new Error(`workflow step ${step.id} changed while its run was claimed`);
  return updated;
}
