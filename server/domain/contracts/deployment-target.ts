// Where a project may deploy. `sandbox` is the in-process sandbox chain, for sandbox keys only. Any other network needs
// a reviewed deployment connection serving it; no provider adapter of this build can deploy contracts, so those
// networks fail closed with 424 PROVIDER_NOT_CONNECTED (at generation, and again at deployment).
import type { AuthContext } from "../../context.ts";
import { ServiceError } from "../../errors/service-error.ts";

export const SANDBOX_NETWORK = "sandbox";

export function assertDeploymentTarget(auth: AuthContext, network: string): void {
  if (network === SANDBOX_NETWORK) {
    if (auth.environment === "sandbox") return;
    throw new ServiceError(
      "PROVIDER_NOT_CONNECTED",
      "The sandbox chain serves sandbox keys only; a production key needs a production network with a reviewed deployment connection",
    );
  }
  throw new ServiceError(
    "PROVIDER_NOT_CONNECTED",
    `No reviewed deployment connection serves ${network} for this organization in ${auth.environment}; this build deploys to the sandbox chain only`,
  );
}
