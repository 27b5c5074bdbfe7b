import type { Db } from "../../db/open-database.ts";
import { notFound } from "../../errors/service-error.ts";
import type { components } from "../../generated/openapi.ts";
import { readPolicySettings } from "../compliance/policy-settings.ts";

/** The organization's settings with defaults filled in; 404 for an unknown organization. */
export async function getOrganizationSettings(prisma: Db, organizationId: string): Promise<components["schemas"]["OrganizationSettings"]> {
  const organization = await prisma.organization.findUnique({ where: { id: organizationId }, select: { settings: true } });
  if (!organization) throw notFound("Organization");
  return { organizationId, policy: readPolicySettings(organization.settings) };
}
