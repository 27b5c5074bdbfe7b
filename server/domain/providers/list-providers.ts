import type { AuthContext } from "../../context.ts";
import type { Queryable } from "../../db/kysely.ts";
import { ownedBy } from "../../db/owned-by.ts";
import type { components } from "../../generated/openapi.ts";
import { CATEGORY_SCOPE, type ProviderCategory } from "../../providers/provider-adapter.ts";
import { PROVIDER_ADAPTERS } from "../../providers/registry.ts";

type Directory = components["schemas"]["ProviderDirectory"];

/** The directory: every adapter of the build, with its catalogue and whether the organization has connected it. */
export async function listProviders(
  db: Queryable,
  {
    auth,
    category,
  }: {
    auth: AuthContext;
    category?: ProviderCategory;
  },
): Promise<Directory> {
  let query = db.selectFrom("ProviderConnection").select(["category", "providerSlug"]).where(ownedBy(auth)).where("reviewed", "=", true);
  if (category) query = query.where("category", "=", category);
  const connections = await query.execute();
  const connected = new Set(connections.map((c) => `${c.category}/${c.providerSlug}`));
  const data = PROVIDER_ADAPTERS.filter((a) => !category || a.category === category).map((adapter) => ({
    providerSlug: adapter.slug,
    category: adapter.category,
    name: adapter.name,
    simulator: adapter.simulator,
    connected: connected.has(`${adapter.category}/${adapter.slug}`),
    scope: CATEGORY_SCOPE[adapter.category],
    operations: Object.entries(adapter.operations).map(([operation, def]) => ({
      operation,
      description: def.description,
      kind: def.kind,
      requiresApproval: def.requiresApproval,
      inputSchema: def.inputSchema,
    })),
  }));
  return { count: data.length, data };
}
