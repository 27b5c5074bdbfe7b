import type { Db } from "../../db/open-database.ts";
import { notFound } from "../../errors/service-error.ts";
import type { components } from "../../generated/openapi.ts";
import { newId } from "../../lib/ids.ts";
import { toOrganizationSettings } from "./get-organization-settings.ts";

/** Replaces each section sent (`settings.policy`, `settings.chainCapabilities`) in one atomic statement; other keys of
 * `settings` are kept. 404 for an unknown organization. */
export async function updateOrganizationSettings(
  db: Db,
  { organizationId, ...input }: { organizationId: string } & components["schemas"]["UpdateOrganizationSettingsRequest"],
): Promise<components["schemas"]["OrganizationSettings"]> {
  const sections: Record<string, unknown> = {};
  if (input.policy) {
    sections.policy = { blockedJurisdictions: [...new Set(input.policy.blockedJurisdictions)], maxAmountUsd: input.policy.maxAmountUsd };
  }
  if (input.chainCapabilities) sections.chainCapabilities = input.chainCapabilities;
  // `settings || sections` replaces the top-level keys sent and keeps the others; the audit entry (the operator acted:
  // no member) is written in the same transaction, only when the organization exists.
  const rows = await db.$queryRaw<Array<{ settings: unknown }>>`
    WITH updated AS (
      UPDATE "Organization"
      SET "settings" = (CASE WHEN jsonb_typeof("settings") = 'object' THEN "settings" ELSE '{}'::jsonb END) || ${JSON.stringify(sections)}::jsonb
      WHERE "id" = ${organizationId}
      RETURNING "id", "settings"
    ), audited AS (
      INSERT INTO "AuditEntry" ("id", "organizationId", "action", "details", "createdAt")
      SELECT ${newId("aud")}, "id", 'settings.changed', ${JSON.stringify({ sections: Object.keys(sections) })}::jsonb, now() FROM updated
    )
    SELECT "settings" FROM updated`;
  const row = rows[0];
  if (!row) throw notFound("Organization");
  return toOrganizationSettings(organizationId, row.settings);
}
