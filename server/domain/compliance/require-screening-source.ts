import type { AuthContext } from "../../context.ts";
import type { Queryable } from "../../db/kysely.ts";
import { ownedBy } from "../../db/owned-by.ts";
import { ServiceError } from "../../errors/service-error.ts";

/** Sandbox keys are screened against the sandbox list. Production fails closed: it needs a reviewed
 * compliance_screening connection of a live adapter. The only adapter today is the sandbox list (`simulator`), which
 * never serves production (the admin API refuses it; an older production row is ignored), so production stays closed. */
export async function requireScreeningSource(db: Queryable, auth: AuthContext): Promise<void> {
  if (auth.environment === "sandbox") return;
  const connection = await db
    .selectFrom("ProviderConnection")
    .select("id")
    .where(ownedBy(auth))
    .where("category", "=", "compliance_screening")
    .where("reviewed", "=", true)
    .where("providerSlug", "<>", "simulator")
    .executeTakeFirst();
  if (!connection) {
    throw new ServiceError("PROVIDER_NOT_CONNECTED", "No reviewed compliance_screening connection serves this organization in production");
  }
}
