import { ServiceError } from "../../errors/service-error.ts";
import { ProviderUnavailableError } from "../../providers/capabilities/provider-unavailable.ts";
import { ProviderExecutionError } from "../../providers/provider-adapter.ts";

/** Calls the bank provider; its failures (or unreachability) become 502 PROVIDER_EXECUTION_FAILED. */
export async function callBankProvider<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof ProviderExecutionError || error instanceof ProviderUnavailableError) {
      throw new ServiceError("PROVIDER_EXECUTION_FAILED", `The bank transfer provider failed to ${what}: ${error.message}`, {
        cause: error,
      });
    }
    throw error;
  }
}
