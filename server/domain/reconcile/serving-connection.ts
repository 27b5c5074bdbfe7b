// The provider connection that served a resource, as it was when its request called it — the adapter by the resource's
// `provider` slug and the config of its `connectionId` — so the reconciler asks the provider that holds the intent's
// reference, whatever the organization's connection is now.
import type { Queryable } from "../../db/kysely.ts";
import { ownedBy } from "../../db/owned-by.ts";
import type { ProviderCategory } from "../../providers/provider-adapter.ts";
import { findAdapter } from "../../providers/registry.ts";
import { connectionConfig } from "../providers/resolve-provider.ts";

export async function servingConnection(
  db: Queryable,
  category: ProviderCategory,
  served: { provider: string; connectionId: string | null },
  scope: { organizationId: string; environment: string },
) {
  const adapter = findAdapter(category, served.provider);
  if (!adapter) throw new Error(`no ${category} adapter "${served.provider}"`);
  const stored = served.connectionId
    ? await db
        .selectFrom("ProviderConnection")
        .select("config")
        .where(ownedBy(scope))
        .where("id", "=", served.connectionId)
        .executeTakeFirst()
    : undefined;
  return { adapter, config: connectionConfig(adapter, category, stored?.config ?? {}) };
}
