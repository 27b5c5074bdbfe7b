// How a corridor step's provider answers become a step outcome (error codes documented on WorkflowStepError):
// transient ones (`retryable: true`) are retried by the scheduler, permanent ones fail the step. Pure, apart from the
// provider calls in run-step.ts, so the classification can be checked without a database.
import { classifyProviderFailure } from "../providers/classify-provider-failure.ts";
import type { StepProvider } from "./step-providers.ts";

export type StepOutcome =
  | { kind: "succeeded"; output: Record<string, unknown>; provider: string; simulated: boolean }
  | { kind: "failed"; retryable: boolean; code: string; message: string; provider: string | null; simulated: boolean };

type Served = Pick<StepProvider, "slug" | "simulated">;

/** A failed outcome; without a provider the step counts as simulated (nothing real was asked). */
export const failedStep = (p: Served | null, retryable: boolean, code: string, message: string): StepOutcome => ({
  kind: "failed",
  retryable,
  code,
  message,
  provider: p?.slug ?? null,
  simulated: p?.simulated ?? true,
});

/** Provider errors, classified as every provider call classifies them (classifyProviderFailure): unreachable (or too
 * slow) → transient; a failure or refusal the provider answered → permanent; anything else is a bug. */
export function outcomeOfProviderError(p: Served, error: unknown): StepOutcome {
  const failure = classifyProviderFailure(error);
  if (failure === null) throw error;
  if (failure.kind === "unreachable") return failedStep(p, true, "PROVIDER_UNAVAILABLE", failure.message);
  return failedStep(p, false, "PROVIDER_FAILED", failure.message);
}

/** A bank leg whose last read reported `status`: null when it completed; a failure or return is permanent with the
 * bank's reason as code; a cancellation is permanent; anything not final yet is transient. */
export function bankLegFailure(p: Served, status: string, failureReason: { code: string; message: string } | null): StepOutcome | null {
  if (status === "failed" || status === "returned") {
    return failedStep(p, false, (failureReason?.code ?? status).toUpperCase(), failureReason?.message ?? `the transfer was ${status}`);
  }
  if (status === "cancelled") return failedStep(p, false, "CANCELLED", "the bank transfer was cancelled at the provider");
  if (status !== "completed") return failedStep(p, true, "SETTLEMENT_PENDING", "the bank transfer has not settled yet");
  return null;
}

/** The custody leg as the provider reports it after submission: null when completed; a failure is permanent with the
 * provider's reason as code; anything not final yet is transient. */
export function custodyLegFailure(
  p: Served,
  state: { state: string; failure: { code: string; message: string } | null },
): StepOutcome | null {
  if (state.state === "failed") {
    return failedStep(p, false, (state.failure?.code ?? "provider_failed").toUpperCase(), state.failure?.message ?? "the transfer failed");
  }
  if (state.state !== "completed") return failedStep(p, true, "SETTLEMENT_PENDING", "the custody transfer is not final yet");
  return null;
}
