import type { AuthContext } from "../../context.ts";
import { ServiceError } from "../../errors/service-error.ts";
import { CATEGORY_SCOPE, type ProviderAdapter, type ProviderCategory } from "../../providers/provider-adapter.ts";
import { findAdapter } from "../../providers/registry.ts";
import { hasScope } from "../access/api-keys.ts";

/** The scope of a provider category is the scope of the operation (documented on providers/invoke). */
export function requireCategoryScope(auth: AuthContext, category: ProviderCategory): void {
  const scope = CATEGORY_SCOPE[category];
  if (!hasScope(auth.scopes, scope))
    throw new ServiceError("FORBIDDEN", `This API key lacks the scope ${scope} required for ${category} providers`);
}

export function requireAdapter(category: ProviderCategory, providerSlug: string, operation?: string): ProviderAdapter {
  const adapter = findAdapter(category, providerSlug);
  if (!adapter) throw new ServiceError("NOT_FOUND", `No provider "${providerSlug}" in category ${category}`);
  // Own properties only: "constructor" or "__proto__" must not resolve to Object.prototype members (that was a 500).
  if (operation !== undefined && !Object.hasOwn(adapter.operations, operation)) {
    throw new ServiceError("NOT_FOUND", `Provider "${providerSlug}" has no operation "${operation}" in category ${category}`);
  }
  return adapter;
}
