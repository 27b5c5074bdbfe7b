import type { AuthContext } from "../../context.ts";
import { ServiceError } from "../../errors/service-error.ts";

/** The authorization test helpers play the card network: sandbox keys only (called after the issuer resolved, so a
 * production key without a connection gets 424 like on every card endpoint). */
export function requireTestHelperAccess(auth: AuthContext): void {
  if (auth.environment !== "sandbox") {
    throw new ServiceError("FORBIDDEN", "Card test helpers are sandbox-only; use a sandbox API key");
  }
}
