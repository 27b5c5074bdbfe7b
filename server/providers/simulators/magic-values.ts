// Magic values shared by the sandbox simulators, so integrators can rehearse failure paths (documented in the spec).
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
