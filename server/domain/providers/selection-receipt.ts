// Selection receipts: providers/select records which connection it resolved (SelectionReceipt); providers/invoke may
// name the receipt, and is then held to its category, provider and operation until it expires.
import type { AuthContext } from "../../context.ts";
import { ownedBy } from "../../db/owned-by.ts";
import type { UnitOfWork } from "../../db/unit-of-work/index.ts";
import { ServiceError } from "../../errors/service-error.ts";
import { newId } from "../../lib/ids.ts";
import type { ProviderCategory } from "../../providers/provider-adapter.ts";
import type { ResolvedProvider } from "./resolve-provider.ts";

export const SELECTION_RECEIPT_TTL_MS = 60 * 60 * 1000;

export interface SelectionReceiptRow {
  id: string;
  organizationId: string;
  environment: AuthContext["environment"];
  category: ProviderCategory;
  operation: string | null;
  providerSlug: string;
  connectionId: string | null;
  simulated: boolean;
  createdAt: Date;
  expiresAt: Date;
}

/** Records the receipt of a resolved selection with the request's commit (nothing in the request reads it back). */
export function recordSelectionReceipt(
  uow: UnitOfWork,
  auth: AuthContext,
  selection: { category: ProviderCategory; operation: string | null; resolved: ResolvedProvider },
): SelectionReceiptRow {
  const { category, operation, resolved } = selection;
  const receipt: SelectionReceiptRow = {
    id: newId("psr"),
    organizationId: auth.organizationId,
    environment: auth.environment,
    category,
    operation,
    providerSlug: resolved.adapter.slug,
    connectionId: resolved.connectionId,
    simulated: resolved.simulated,
    createdAt: uow.now,
    expiresAt: new Date(uow.now.getTime() + SELECTION_RECEIPT_TTL_MS),
  };
  uow.insertLater("SelectionReceipt", receipt);
  return receipt;
}

/** 404 for another organization's (or an unknown) receipt; 400 when it names another provider, category or
 * operation, or has expired. */
export async function checkSelectionReceipt(
  uow: UnitOfWork,
  auth: AuthContext,
  invocation: { selectionReceiptId: string; category: string; providerSlug: string; operation: string },
): Promise<void> {
  const receipt = await uow.tx
    .selectFrom("SelectionReceipt")
    .select(["category", "providerSlug", "operation", "expiresAt"])
    .where("id", "=", invocation.selectionReceiptId)
    .where(ownedBy(auth))
    .executeTakeFirst();
  if (!receipt) throw new ServiceError("NOT_FOUND", "Selection receipt not found");
  const mismatch =
    receipt.category !== invocation.category ||
    receipt.providerSlug !== invocation.providerSlug ||
    (receipt.operation !== null && receipt.operation !== invocation.operation);
  const path = "/body/selectionReceiptId";
  if (mismatch) {
    const message = "names another provider, category or operation";
    throw new ServiceError("INVALID_INPUT", `The selection receipt ${message}`, { errors: [{ path, message }] });
  }
  if (receipt.expiresAt <= uow.now)
    throw new ServiceError("INVALID_INPUT", "The selection receipt has expired", { errors: [{ path, message: "has expired" }] });
}
