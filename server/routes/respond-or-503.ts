// Payments writes document a database failure as 503 STORAGE_UNAVAILABLE (Retry-After, nothing written).

import { ProviderExecutionError } from "../domain/providers/provider-failures.ts";
import { isDatabaseUnavailable } from "../errors/classify-failure.ts";
import { ServiceError } from "../errors/service-error.ts";
import type { Answered, OperationId, RouteContext, Work } from "./route.ts";

/** An error the database driver raised (a failed statement carries a SQLSTATE and a severity), or an unreachable one. */
function isDatabaseError(error: unknown): boolean {
  if (isDatabaseUnavailable(error)) return true;
  for (let e: unknown = error, depth = 0; e && typeof e === "object" && depth < 6; depth++) {
    const { code, severity } = e as { code?: unknown; severity?: unknown };
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code) && typeof severity === "string") return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

const storageUnavailable = (error: unknown) =>
  error instanceof ServiceError || error instanceof ProviderExecutionError || !isDatabaseError(error)
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
export async function respondOr503<K extends OperationId>(respond: RouteContext<K>["respond"], work: Work<K>): Promise<Answered> {
  try {
    return await respond(async (uow) => {
      try {
        return await work(uow);
      } catch (error) {
        throw storageUnavailable(error);
      }
    });
  } catch (error) {
    throw storageUnavailable(error);
  }
}
