import { ServiceError } from "../../errors/service-error.ts";
import { CardIssuerError } from "../../providers/card-issuer.ts";
import { ProviderExecutionError } from "../../providers/provider-adapter.ts";

/** Calls the card issuer and turns its failures into the documented problems (nothing has been written yet when it
 * fails, or the surrounding transaction rolls back). */
export async function callCardIssuer<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof CardIssuerError) {
      throw new ServiceError(error.code, error.message, error.code === "PROVIDER_RATE_LIMITED" ? { retryAfterSeconds: 1 } : {});
    }
    if (error instanceof ProviderExecutionError) {
      throw new ServiceError("PROVIDER_EXECUTION_FAILED", `The card issuer failed: ${error.message}`);
    }
    throw error;
  }
}
