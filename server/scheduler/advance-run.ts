// Advances one claimed workflow run by its next pending step, inside the dispatcher's transaction: the step's effect,
// its outcome and the run's next state commit together.
//
// Step outcome → state:
//   succeeded            → step succeeded; the run is `running` and due again now, or `completed` after the last step
//   transient (retryable) → step back to `pending` with the error; run due at now + 30 s × 2^(attempts−1)
//   permanent, or transient on attempt 5 → step `failed`, later steps `skipped`, run `failed`
// `rehearse_with_failures`: the first attempt of every step fails with PROVIDER_TIMEOUT before any provider call.

import { runStep, type StepContext, type StepOutcome } from "../domain/corridors/run-step.ts";
import type { StepName } from "../domain/corridors/workflow-dto.ts";
import type { WorkflowRun, WorkflowStep } from "../generated/prisma/client.ts";
import type { Tx } from "../idempotency/idempotency-store.ts";

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

export async function advanceRun(tx: Tx, run: WorkflowRun, now: Date): Promise<DispatchedStep | null> {
  const steps = await tx.workflowStep.findMany({ where: { runId: run.id }, orderBy: { position: "asc" } });
  const step = steps.find((s) => s.status === "pending");
  if (!step) {
    // Nothing left to run (a run is completed with its last step); settle it rather than claim it forever.
    await tx.workflowRun.update({
      where: { id: run.id },
      data: { status: "completed", nextRunAt: null, version: { increment: 1 }, updatedAt: now },
    });
    return null;
  }
  const outputs: StepContext["outputs"] = {};
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
    outcome = await runStep(step.name as StepName, {
      tx,
      run,
      request: run.request as unknown as StepContext["request"],
      outputs,
      stepKey: step.stepKey,
      now,
    });
  }
  return recordOutcome(tx, run, steps, step, attempts, outcome, now);
}

async function recordOutcome(
  tx: Tx,
  run: WorkflowRun,
  steps: WorkflowStep[],
  step: WorkflowStep,
  attempts: number,
  outcome: StepOutcome,
  now: Date,
): Promise<DispatchedStep> {
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
  let runUpdate: { status: string; nextRunAt: Date | null };
  if (outcome.kind === "succeeded") {
    stepStatus = "succeeded";
    const last = steps.every((s) => s.id === step.id || s.status === "succeeded" || s.status === "skipped");
    runUpdate = last ? { status: "completed", nextRunAt: null } : { status: "running", nextRunAt: finishedAt };
    await guardedStepUpdate(tx, step, { ...common, status: "succeeded", output: outcome.output, error: undefined });
  } else if (outcome.retryable && attempts < MAX_ATTEMPTS) {
    stepStatus = "pending";
    runUpdate = { status: "running", nextRunAt: new Date(finishedAt.getTime() + retryDelayMs(attempts)) };
    await guardedStepUpdate(tx, step, { ...common, status: "pending", error: errorOf(outcome, true) });
  } else {
    stepStatus = "failed";
    const message = outcome.retryable ? `${outcome.message} (gave up after ${attempts} attempts)` : outcome.message;
    runUpdate = { status: "failed", nextRunAt: null };
    await guardedStepUpdate(tx, step, { ...common, status: "failed", error: { ...errorOf(outcome, false), message } });
    await tx.workflowStep.updateMany({
      where: { runId: run.id, position: { gt: step.position }, status: "pending" },
      data: { status: "skipped", updatedAt: finishedAt },
    });
  }
  await tx.workflowRun.update({
    where: { id: run.id, version: run.version },
    data: { ...runUpdate, simulated: run.simulated || outcome.simulated, version: { increment: 1 }, updatedAt: finishedAt },
  });
  return { workflowRunId: run.id, step: step.name as StepName, status: stepStatus };
}

/** Records a dispatch that crashed before its outcome could be recorded (its transaction rolled back, so no effect
 * committed) as a transient attempt, so a persistently failing run backs off and ends `failed` after 5 attempts. */
export async function recordDispatchError(tx: Tx, runId: string, now: Date): Promise<DispatchedStep | null> {
  await tx.$queryRaw`SELECT id FROM "WorkflowRun" WHERE id = ${runId} FOR UPDATE`;
  const run = await tx.workflowRun.findUniqueOrThrow({ where: { id: runId } });
  if (run.status !== "queued" && run.status !== "running") return null;
  const steps = await tx.workflowStep.findMany({ where: { runId }, orderBy: { position: "asc" } });
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
  return recordOutcome(tx, run, steps, step, step.attempts + 1, outcome, now);
}

const errorOf = (outcome: Extract<StepOutcome, { kind: "failed" }>, retryable: boolean) => ({
  code: outcome.code,
  message: outcome.message.slice(0, 500),
  retryable,
});

/** Compare-and-set on the attempt count: a second dispatcher that somehow reached the same attempt changes nothing. */
async function guardedStepUpdate(tx: Tx, step: WorkflowStep, data: Record<string, unknown>): Promise<void> {
  const { count } = await tx.workflowStep.updateMany({ where: { id: step.id, status: "pending", attempts: step.attempts }, data });
  if (count !== 1) throw new Error(`workflow step ${step.id} changed while its run was claimed`);
}
