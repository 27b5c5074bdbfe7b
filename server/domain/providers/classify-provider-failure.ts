// The one place a provider's failure becomes the problem a caller sees. Pure: no I/O, table-tested.
import type { ErrorCode } from "../../errors/codes.ts";
import { ServiceError } from "../../errors/service-error.ts";
import { IoTimeoutError } from "../../lib/with-io-timeout.ts";
import { CardIssuerError } from "../../providers/capabilities/card-issuing.ts";
import { ProviderUnavailableError } from "../../providers/capabilities/provider-unavailable.ts";
import { ProviderExecutionError } from "../../providers/provider-adapter.ts";

/** What went wrong at the provider, whatever its category. */
export type ProviderFailure =
  /** The provider answered with a failure (ProviderExecutionError). */
  | { kind: "failed"; message: string }
  /** The provider could not be reached, or did not answer in time: nothing happened there, a retry is safe. */
  | { kind: "unreachable"; message: string }
  /** The provider refused with a documented code of its own (a card issuer's CardIssuerError). */
  | { kind: "refused"; code: CardIssuerError["code"]; message: string };

/** null: not a provider failure (a bug, or a ServiceError already) — the caller rethrows it unchanged. */
export function classifyProviderFailure(error: unknown): ProviderFailure | null {
  if (error instanceof CardIssuerError) return { kind: "refused", code: error.code, message: error.message };
  if (error instanceof ProviderExecutionError) return { kind: "failed", message: error.message };
  if (error instanceof ProviderUnavailableError || error instanceof IoTimeoutError) return { kind: "unreachable", message: error.message };
  return null;
}

/**
 * How an operation words and answers a provider failure:
 * - `provider` names it in messages ("The custody provider");
 * - `what` the call does, completing "failed to …" and "could not be reached to …" ("create the wallet"); without it
 *   the messages end in the provider's own reason;
 * - `unreachable` is the answer to an unreachable (or timed-out) provider: `SOURCE_NOT_AVAILABLE` (503, Retry-After),
 *   `PROVIDER_EXECUTION_FAILED` (502, same wording, for operations that document no 503), or `as_failure` (502, worded
 *   as a failure: the bank transfer endpoints).
 */
export interface FailureWording {
  provider: string;
  what?: string;
  unreachable: "SOURCE_NOT_AVAILABLE" | "PROVIDER_EXECUTION_FAILED" | "as_failure";
}

/** Retry-After of an unreachable provider, and of an issuer's rate limit. */
export const UNREACHABLE_RETRY_AFTER_SECONDS = 5;
export const RATE_LIMITED_RETRY_AFTER_SECONDS = 1;

export function providerFailureProblem(failure: ProviderFailure, wording: FailureWording, cause?: unknown): ServiceError {
  const { provider, what } = wording;
  if (failure.kind === "refused") {
    const rateLimited = failure.code === "PROVIDER_RATE_LIMITED";
    return new ServiceError(failure.code, failure.message, {
      cause,
      ...(rateLimited ? { retryAfterSeconds: RATE_LIMITED_RETRY_AFTER_SECONDS } : {}),
    });
  }
  if (failure.kind === "failed" || wording.unreachable === "as_failure") {
    const message = `${provider} failed${what ? ` to ${what}` : ""}: ${failure.message}`;
    return new ServiceError("PROVIDER_EXECUTION_FAILED", message, { cause });
  }
  const code: ErrorCode = wording.unreachable;
  const message = what
    ? `${provider} could not be reached to ${what}; nothing changed, retry`
    : `${provider} could not be reached: ${failure.message}`;
  return new ServiceError(code, message, {
    cause,
    ...(code === "SOURCE_NOT_AVAILABLE" ? { retryAfterSeconds: UNREACHABLE_RETRY_AFTER_SECONDS } : {}),
  });
}
