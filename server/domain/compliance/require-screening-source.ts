import type { AuthContext } from "../../context.ts";
import { ServiceError } from "../../errors/service-error.ts";
import type { Tx } from "../../idempotency/idempotency-store.ts";

/** Sandbox keys are screened against the sandbox list. Production fails closed: it needs a reviewed
 * compliance_screening connection (today the only adapter is that same list, connected as `simulator`). */
export async function requireScreeningSource(tx: Tx, auth: AuthContext): Promise<void> {
  if (auth.environment === "sandbox") return;
  const connection = await tx.providerConnection.findFirst({
    where: { organizationId: auth.organizationId, environment: auth.environment, category: "compliance_screening", reviewed: true },
    select: { id: true },
  });
  if (!connection) {
    throw new ServiceError("PROVIDER_NOT_CONNECTED", "No reviewed compliance_screening connection serves this organization in production");
  }
}
