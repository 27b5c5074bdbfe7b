import type { Db } from "../../db/open-database.ts";
import { notFound } from "../../errors/service-error.ts";
import type { components } from "../../generated/openapi.ts";
import { readPolicySettings } from "../compliance/policy-settings.ts";
import { readChainCapabilities } from "../treasury/chain-capabilities.ts";

type OrganizationSettings = components["schemas"]["OrganizationSettings"];

/** The settings as the API shows them: the policy with defaults filled in; chainCapabilities only when some are set. */
export function toOrganizationSettings(organizationId: string, settings: unknown): OrganizationSettings {
  const chainCapabilities = readChainCapabilities(settings);
  return {
    organizationId,
    policy: readPolicySettings(settings),
    ...(Object.keys(chainCapabilities).length > 0 ? { chainCapabilities } : {}),
  };
}

/** The organization's settings with defaults filled in; 404 for an unknown organization. */
export async function getOrganizationSettings(db: Db, { organizationId }: { organizationId: string }): Promise<OrganizationSettings> {
  const organization = await db.organization.findUnique({ where: { id: organizationId }, select: { settings: true } });
  if (!organization) throw notFound("Organization");
  return toOrganizationSettings(organizationId, organization.settings);
}
