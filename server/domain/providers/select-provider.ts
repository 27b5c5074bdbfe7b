import type { AuthContext } from "../../context.ts";
import type { Db } from "../../db/open-database.ts";
import type { components } from "../../generated/openapi.ts";
import type { Tx } from "../../idempotency/idempotency-store.ts";
import { newId } from "../../lib/ids.ts";
import type { ProviderCategory } from "../../providers/provider-adapter.ts";
import { resolveProvider } from "../../providers/resolve-provider.ts";
import { requireAdapter, requireCategoryScope } from "./require-category-scope.ts";

export const SELECTION_RECEIPT_TTL_MS = 60 * 60 * 1000;
type Receipt = components["schemas"]["SelectionReceipt"];

export interface SelectProviderOptions {
  prisma: Db;
  auth: AuthContext;
  category: ProviderCategory;
  operation?: string;
  providerSlug?: string;
}

/** Resolves the provider first (reads), then returns a function that records the receipt inside the write transaction. */
export async function selectProvider(options: SelectProviderOptions): Promise<(tx: Tx) => Promise<Receipt>> {
  const { prisma, auth, category, operation, providerSlug } = options;
  requireCategoryScope(auth, category);
  if (providerSlug) requireAdapter(category, providerSlug, operation);
  const resolved = await resolveProvider({ prisma, auth, category, providerSlug, sandboxFallback: false });
  if (operation !== undefined) requireAdapter(category, resolved.adapter.slug, operation);
  return async (tx) => {
    const now = new Date();
    const receipt = await tx.selectionReceipt.create({
      data: {
        id: newId("psr"),
        organizationId: auth.organizationId,
        environment: auth.environment,
        category,
        operation: operation ?? null,
        providerSlug: resolved.adapter.slug,
        connectionId: resolved.connectionId,
        simulated: resolved.simulated,
        expiresAt: new Date(now.getTime() + SELECTION_RECEIPT_TTL_MS),
      },
    });
    return {
      selectionReceiptId: receipt.id,
      category,
      operation: operation ?? null,
      providerSlug: receipt.providerSlug,
      connectionId: resolved.connectionId as string,
      simulated: receipt.simulated,
      reason: providerSlug ? `reviewed ${category} connection to ${providerSlug}` : `newest reviewed ${category} connection`,
      createdAt: receipt.createdAt.toISOString(),
      expiresAt: receipt.expiresAt.toISOString(),
    };
  };
}
