// Resolves (organization, environment, category) to a reviewed connection's adapter, or fails closed.
import type { AuthContext } from "../../context.ts";
import { cachedRead } from "../../db/cached-read.ts";
import type { Queryable } from "../../db/kysely.ts";
import { ownedBy } from "../../db/owned-by.ts";
import { ServiceError } from "../../errors/service-error.ts";
import { type ProviderAdapter, type ProviderCategory, ProviderConfigError } from "../../providers/provider-adapter.ts";
import { findAdapter } from "../../providers/registry.ts";

export interface ResolvedProvider {
  adapter: ProviderAdapter;
  config: Record<string, unknown>;
  connectionId: string | null;
  /** True when a sandbox simulator serves the request (connected or as the sandbox fallback). */
  simulated: boolean;
}

export interface ResolveOptions {
  db: Queryable;
  auth: AuthContext;
  category: ProviderCategory;
  /** Only this provider may serve (providers/invoke names one). */
  providerSlug?: string;
  /** Endpoints marked "Sandbox only: simulated" fall back to the category's simulator in the sandbox environment when
   * no reviewed connection serves them. Custody never does: its simulator runs only when explicitly connected. */
  sandboxFallback: boolean;
}

/** The newest reviewed connection of a category (it supersedes older ones), optionally only of one provider. A simulator
 * connection never serves production (the admin API refuses to create one; a row from before that rule is ignored), so
 * a production key gets a provider's result or fails closed, never a simulated one. Read through the organization's
 * cached connections (server/db/cached-read.ts): an operator's change applies on the next request, and "none" is
 * remembered too, until a connection is added. */
export function newestReviewedConnection(
  db: Queryable,
  scope: { organizationId: string; environment: string },
  category: ProviderCategory,
  providerSlug?: string,
) {
  const load = () => {
    let query = db
      .selectFrom("ProviderConnection")
      .select(["id", "providerSlug", "config"])
      .where(ownedBy(scope))
      .where("category", "=", category)
      .where("reviewed", "=", true);
    if (providerSlug) query = query.where("providerSlug", "=", providerSlug);
    if (scope.environment === "production") query = query.where("providerSlug", "<>", "simulator");
    return query.orderBy("createdAt", "desc").orderBy("id", "desc").limit(1).executeTakeFirst();
  };
  const key = `${scope.environment}
${category}
${providerSlug ?? ""}`;
  return cachedRead(db, "ProviderConnection", scope.organizationId, key, load, { cacheMisses: true });
}

/** The connection's config as the adapter validates it; an unusable one is the server's misconfiguration (500). */
export function connectionConfig(adapter: ProviderAdapter, category: ProviderCategory, config: unknown): Record<string, unknown> {
  try {
    return adapter.parseConfig(config);
  } catch (error) {
    if (error instanceof ProviderConfigError) {
      throw new ServiceError("SERVER_MISCONFIGURED", `The ${category} connection's configuration is unusable: ${error.message}`);
    }
    throw error;
  }
}

export async function resolveProvider({ db, auth, category, providerSlug, sandboxFallback }: ResolveOptions): Promise<ResolvedProvider> {
  const connection = await newestReviewedConnection(db, auth, category, providerSlug);
  if (connection) {
    const adapter = findAdapter(category, connection.providerSlug);
    if (!adapter) {
      throw new ServiceError(
        "SERVER_MISCONFIGURED",
        `The ${category} connection names provider "${connection.providerSlug}", which this server has no adapter for`,
      );
    }
    const config = connectionConfig(adapter, category, connection.config);
    return { adapter, config, connectionId: connection.id, simulated: adapter.simulator };
  }
  // Custody never falls back: its simulator runs only when explicitly connected (description: custody fails closed).
  const mayFallBack = sandboxFallback && category !== "custody" && auth.environment === "sandbox";
  if (mayFallBack && (!providerSlug || providerSlug === "simulator")) {
    const adapter = findAdapter(category, "simulator");
    if (adapter) return { adapter, config: adapter.parseConfig({}), connectionId: null, simulated: true };
  }
  throw new ServiceError(
    "PROVIDER_NOT_CONNECTED",
    `No reviewed ${category} provider connection serves this organization in ${auth.environment}`,
  );
}
