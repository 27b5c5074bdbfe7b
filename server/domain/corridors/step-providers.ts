// Which provider serves a corridor step. A rehearsal never fails closed: the newest reviewed connection of the step's
// category serves it when there is one; otherwise the category's sandbox simulator (bank legs, custody leg) or a local
// fallback (FX rate table) does, and the step says `simulated: true`.
import type { Queryable } from "../../db/kysely.ts";
import { type ProviderAdapter, type ProviderCategory, ProviderConfigError } from "../../providers/provider-adapter.ts";
import { findAdapter } from "../../providers/registry.ts";
import { newestReviewedConnection } from "../providers/resolve-provider.ts";

export const LOCAL_FALLBACK = "local_fallback";

export interface StepProvider {
  /** null: the local fallback serves the step. */
  adapter: ProviderAdapter | null;
  config: Record<string, unknown>;
  slug: string;
  simulated: boolean;
}

export async function resolveStepProvider(
  db: Queryable,
  scope: { organizationId: string; environment: string },
  category: ProviderCategory,
  fallback: "simulator" | "local",
): Promise<StepProvider> {
  const connection = await newestReviewedConnection(db, scope, category);
  const adapter = connection ? findAdapter(category, connection.providerSlug) : undefined;
  if (connection && adapter) {
    try {
      return { adapter, config: adapter.parseConfig(connection.config), slug: adapter.slug, simulated: adapter.simulator };
    } catch (error) {
      if (!(error instanceof ProviderConfigError)) throw error;
      // An unusable connection cannot serve a rehearsal; fall back like an absent one.
    }
  }
  if (fallback === "local") return { adapter: null, config: {}, slug: LOCAL_FALLBACK, simulated: true };
  return simulatorProvider(category);
}

/** The category's sandbox simulator with its default config. */
export function simulatorProvider(category: ProviderCategory): StepProvider {
  const simulator = findAdapter(category, "simulator") as ProviderAdapter;
  return { adapter: simulator, config: simulator.parseConfig({}), slug: simulator.slug, simulated: true };
}
