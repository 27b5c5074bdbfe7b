import type { Selectable } from "kysely";
import type { DB } from "../../db/kysely.ts";
import type { components } from "../../generated/openapi.ts";

export type WorkflowRunDto = components["schemas"]["WorkflowRun"];
export type StepName = components["schemas"]["WorkflowStepName"];
export type StepError = components["schemas"]["WorkflowStepError"];
export type SimulateRequest = components["schemas"]["SimulateCorridorRequest"];
export type WorkflowRunRow = Selectable<DB["WorkflowRun"]>;
export type WorkflowStepRow = Selectable<DB["WorkflowStep"]>;

export const STEP_NAMES: readonly StepName[] = ["screening", "fx_quote", "onramp_bank_debit", "custody_transfer", "offramp_payout"];

const iso = (d: Date | null) => (d === null ? null : d.toISOString());

export function toWorkflowRunDto(run: WorkflowRunRow, steps: WorkflowStepRow[]): WorkflowRunDto {
  return {
    workflowRunId: run.id,
    status: run.status as WorkflowRunDto["status"],
    executionMode: run.executionMode as WorkflowRunDto["executionMode"],
    amount: run.amount,
    currency: run.currency,
    payoutCurrency: run.payoutCurrency,
    asset: run.asset as WorkflowRunDto["asset"],
    chain: run.chain as WorkflowRunDto["chain"],
    reference: run.reference,
    steps: [...steps]
      .sort((a, b) => a.position - b.position)
      .map((s) => ({
        name: s.name as StepName,
        status: s.status as WorkflowRunDto["steps"][number]["status"],
        attempts: s.attempts,
        provider: s.provider,
        simulated: s.simulated,
        startedAt: iso(s.startedAt),
        finishedAt: iso(s.finishedAt),
        output: (s.output ?? null) as Record<string, unknown> | null,
        error: (s.error ?? null) as StepError | null,
      })),
    simulated: run.simulated,
    nextRunAt: iso(run.nextRunAt),
    createdAt: run.createdAt.toISOString(),
    updatedAt: run.updatedAt.toISOString(),
  };
}
