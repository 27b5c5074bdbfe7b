import type { Db } from "../../db/open-database.ts";
import { notFound } from "../../errors/service-error.ts";
import type { components } from "../../generated/openapi.ts";
import { readPolicySettings } from "../compliance/policy-settings.ts";

/** Replaces `settings.policy` in one atomic statement (other keys of `settings` are kept); 404 for an unknown
 * organization. */
export async function updateOrganizationSettings(
  prisma: Db,
  organizationId: string,
  input: components["schemas"]["UpdateOrganizationSettingsRequest"],
): Promise<components["schemas"]["OrganizationSettings"]> {
  const policy = { blockedJurisdictions: [...new Set(input.policy.blockedJurisdictions)], maxAmountUsd: input.policy.maxAmountUsd };
  const updated = await prisma.$executeRaw`
    UPDATE "Organization"
    SET "settings" = jsonb_set(CASE WHEN jsonb_typeof("settings") = 'object' THEN "settings" ELSE '{}'::jsonb END, '{policy}', ${JSON.stringify(policy)}::jsonb, true)
    WHERE "id" = ${organizationId}`;
  if (updated === 0) throw notFound("Organization");
  return { organizationId, policy: readPolicySettings({ policy }) };
}
