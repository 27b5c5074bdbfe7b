// The one way the domain calls a provider: bounded in time, its failures answered through one classifier. The
// connection comes from connectProvider (or resolveProvider), the idempotency key travels in the capability's call
// context or input, screening stays where each operation runs enforceCompliance, and selection receipts are in
// selection-receipt.ts.
import { withIoTimeout } from "../../lib/with-io-timeout.ts";
import { classifyProviderFailure, type FailureWording, providerFailureProblem } from "./classify-provider-failure.ts";

/** Longest a provider call may take; a slower one is answered as unreachable (nothing recorded, retry with the same
 * key). Below the request timeout, so the caller hears the provider's problem rather than the request's. */
export const PROVIDER_CALL_TIMEOUT_MS = 15_000;

/** How each kind of caller names its provider, and what it answers when the provider cannot be reached. */
const WORDING = {
  custody: { provider: "The custody provider", unreachable: "SOURCE_NOT_AVAILABLE" },
  bank_transfer: { provider: "The bank transfer provider", unreachable: "as_failure" },
  card_issuance: { provider: "The card issuer", unreachable: "SOURCE_NOT_AVAILABLE" },
  reserve_source: { provider: "The reserve source", unreachable: "SOURCE_NOT_AVAILABLE" },
  /** providers/invoke: any category's operation. */
  invoked: { provider: "The provider", unreachable: "SOURCE_NOT_AVAILABLE" },
} as const satisfies Record<string, FailureWording>;

export interface ProviderCall {
  provider: keyof typeof WORDING;
  /** What the call does ("create the wallet"), as the failure's message says it. */
  what?: string;
  /** Overrides the caller's answer to an unreachable provider (an endpoint that documents no 503 answers 502). */
  unreachable?: FailureWording["unreachable"];
  timeoutMs?: number;
}

export async function callProvider<T>(spec: ProviderCall, call: () => Promise<T>): Promise<T> {
  const wording: FailureWording = { ...WORDING[spec.provider], what: spec.what };
  if (spec.unreachable) wording.unreachable = spec.unreachable;
  const timeoutMs = spec.timeoutMs ?? PROVIDER_CALL_TIMEOUT_MS;
  try {
    return await withIoTimeout(call(), timeoutMs, `${wording.provider} (${spec.what ?? "call"})`);
  } catch (error) {
    const failure = classifyProviderFailure(error);
    if (!failure) throw error;
    throw providerFailureProblem(failure, wording, error);
  }
}
