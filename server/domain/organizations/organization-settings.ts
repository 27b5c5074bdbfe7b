// An organization's `settings` (policy limits, chain capabilities), as request paths read them: through the cached
// copy (server/db/cached-read.ts), which an operator's settings update drops on every instance before it answers.
import { cachedRead } from "../../db/cached-read.ts";
import type { Queryable } from "../../db/kysely.ts";

/** The organization's settings JSON, or undefined for an organization that has none recorded. */
export async function organizationSettings(db: Queryable, organizationId: string): Promise<unknown> {
  const row = await cachedRead(db, "Organization", organizationId, "settings", () =>
    db.selectFrom("Organization").select("settings").where("id", "=", organizationId).executeTakeFirst(),
  );
  return row?.settings;
}
