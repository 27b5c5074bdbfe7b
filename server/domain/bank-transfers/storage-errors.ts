// Maps a failure of our own database during a payments write to the endpoint's documented 503, with nothing written
// (the write runs in one transaction, so a failure anywhere in it rolls everything back).
import { isDatabaseUnavailable } from "../../errors/database-errors.ts";
import { ServiceError } from "../../errors/service-error.ts";
import { ProviderExecutionError } from "../../providers/provider-adapter.ts";

/** Errors raised by the database driver or Prisma (unreachable, missing table, aborted transaction …). */
export function isDatabaseError(error: unknown): boolean {
  if (isDatabaseUnavailable(error)) return true;
  for (let e: unknown = error, depth = 0; e && typeof e === "object" && depth < 6; depth++) {
    const name = (e as { name?: unknown }).name;
    if (typeof name === "string" && (name.startsWith("PrismaClient") || name === "DriverAdapterError")) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/** Runs `work`; a database failure becomes `code` (503) with Retry-After. Service and provider errors pass through. */
export async function withStorageErrors<T>(code: "STORAGE_UNAVAILABLE", message: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ServiceError || error instanceof ProviderExecutionError) throw error;
    if (isDatabaseError(error)) throw new ServiceError(code, message, { retryAfterSeconds: 5, cause: error });
    throw error;
  }
}
