import type { AuthContext } from "../../context.ts";
import type { UnitOfWork } from "../../db/unit-of-work/index.ts";
import type { components } from "../../generated/openapi.ts";
import type { ProviderCategory } from "../../providers/provider-adapter.ts";
import { requireAdapter, requireCategoryScope } from "./require-category-scope.ts";
import { resolveProvider } from "./resolve-provider.ts";
import { recordSelectionReceipt } from "./selection-receipt.ts";

type Receipt = components["schemas"]["SelectionReceipt"];

export interface SelectProviderOptions {
  auth: AuthContext;
  category: ProviderCategory;
  operation?: string;
  providerSlug?: string;
}

/** Resolves the provider, then records the selection receipt, in the request's unit of work. */
export async function selectProvider(uow: UnitOfWork, options: SelectProviderOptions): Promise<Receipt> {
  const { auth, category, operation, providerSlug } = options;
  requireCategoryScope(auth, category);
  if (providerSlug) requireAdapter(category, providerSlug, operation);
  const resolved = await resolveProvider({ db: uow.tx, auth, category, providerSlug, sandboxFallback: false });
  if (operation !== undefined) requireAdapter(category, resolved.adapter.slug, operation);
  const receipt = recordSelectionReceipt(uow, auth, { category, operation: operation ?? null, resolved });
  return {
    selectionReceiptId: receipt.id,
    category,
    operation: receipt.operation,
    providerSlug: receipt.providerSlug,
    connectionId: resolved.connectionId as string,
    simulated: receipt.simulated,
    reason: providerSlug ? `reviewed ${category} connection to ${providerSlug}` : `newest reviewed ${category} connection`,
    createdAt: receipt.createdAt.toISOString(),
    expiresAt: receipt.expiresAt.toISOString(),
  };
}
