// Magic values shared by the sandbox simulators, so integrators can rehearse failure paths (documented in the spec).
import { IoTimeoutError } from "../../lib/with-io-timeout.ts";
import { ProviderExecutionError } from "../provider-adapter.ts";

/** An amount of exactly this value makes a simulator fail as a provider would (502 PROVIDER_EXECUTION_FAILED). */
export const FAILING_AMOUNT = "666.66";
/** A destination or address equal to this makes a simulator fail (502 PROVIDER_EXECUTION_FAILED). */
export const FAILING_ADDRESS = "0x000000000000000000000000000000000000dEaD";

export function failOnMagic(values: { amount?: string; address?: string }): void {
  if (values.amount === FAILING_AMOUNT) throw new ProviderExecutionError(`simulated provider failure (amount ${FAILING_AMOUNT})`);
  if (values.address && values.address.toLowerCase() === FAILING_ADDRESS.toLowerCase()) {
    throw new ProviderExecutionError("simulated provider failure (dead address)");
  }
}

// Unknown outcomes (issue 26), rehearsed by the simulators that keep books (documented in the spec beside 666.66):
/** The simulator executes the call, then answers as a timed-out call would: the outcome is unknown to the caller, and
 * the reconciler finds it executed. */
export const TIMEOUT_THEN_EXECUTED_AMOUNT = "777.77";
/** The simulator times out and never executes the call: the reconciler finds nothing and fails the intent. */
export const TIMEOUT_NEVER_EXECUTED_AMOUNT = "778.88";
/** The simulator answers after SLOW_ANSWER_MS, within the provider call's timeout: a slow call, not an unknown outcome. */
export const SLOW_AMOUNT = "779.99";
export const SLOW_ANSWER_MS = 3_000;

/** What a call that timed out throws (server/lib/with-io-timeout.ts) — at once: the simulator does not wait the
 * provider timeout out. */
export function simulatedTimeout(what: string): IoTimeoutError {
  return new IoTimeoutError(`${what} did not answer in time (simulated timeout)`);
}
