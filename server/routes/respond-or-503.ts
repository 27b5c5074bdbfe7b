// Payments writes document a database failure as 503 STORAGE_UNAVAILABLE (Retry-After, nothing written). What counts
// as a database failure is the classifier's to say (server/errors/classify-failure.ts: isDatabaseFailure).
import { ProviderExecutionError } from "../domain/providers/provider-failures.ts";
import { isDatabaseFailure } from "../errors/classify-failure.ts";
import { ServiceError } from "../errors/service-error.ts";
import type { Answered, OperationId, RespondOptions, RouteContext, Work } from "./route.ts";

const storageUnavailable = (error: unknown) =>
  error instanceof ServiceError || error instanceof ProviderExecutionError || !isDatabaseFailure(error)
    ? error
    : new ServiceError("STORAGE_UNAVAILABLE", "The payment could not be recorded; nothing was sent to the provider", {
        retryAfterSeconds: 5,
        cause: error,
      });

/**
 * Answers a payments write whose database failure is 503 STORAGE_UNAVAILABLE. Mapped inside the work, so the unit of
 * work treats it as transient and frees the key, and around it, for a failure of the statement that writes the deferred
 * rows at commit.
 */
export async function respondOr503<K extends OperationId>(
  respond: RouteContext<K>["respond"],
  work: Work<K>,
  options?: RespondOptions,
): Promise<Answered> {
  try {
    return await respond(async (uow) => {
      try {
        return await work(uow);
      } catch (error) {
        throw storageUnavailable(error);
      }
    }, options);
  } catch (error) {
    throw storageUnavailable(error);
  }
}
