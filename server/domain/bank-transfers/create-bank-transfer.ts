// POST bank-transfer: validate the order against its rail → resolve the provider (fail closed in production) → screen
// and evaluate policy → record `pending` → hand it to the provider → record the provider's id.
//
// Two transactions (server/db/unit-of-work/provider-step.ts): the provider call must not run inside a transaction. The first records
// the `pending` transfer (the intent) and the compliance decisions, with an open provider intent (issue 26); the
// provider is called with the transfer id as its idempotency key; the second records the provider's id and the
// activity event (201), or deletes the transfer when the provider refused (502, nothing recorded). If the transfer
// cannot be recorded, nothing reaches the provider.
//
// When the call's outcome is unknown (it timed out: the bank may have executed it), the transfer is neither deleted nor
// failed: it moves to `processing` (handed to the bank, outcome being confirmed), answered 202, and the reconciler
// (reconcile-bank-transfer.ts) asks the bank by the transfer id and settles it. A crash between the two transactions
// leaves the `pending` transfer and its intent to the reconciler the same way.
import type { AuthContext } from "../../context.ts";
import { afterProviderCall, type ProviderStep, type UnitOfWork } from "../../db/unit-of-work/index.ts";
import { ServiceError } from "../../errors/service-error.ts";
import type { components } from "../../generated/openapi.ts";
import { newId } from "../../lib/ids.ts";
import type { SimulatedBankStore } from "../../providers/capabilities/simulated-bank-store.ts";
import type { OperationOutcome } from "../../spec/operation-types.ts";
import { enforceCompliance } from "../compliance/enforce-compliance.ts";
import { connectProvider, servedBy } from "../providers/connect-provider.ts";
import { callProvider } from "../providers/provider-call.ts";
import { validateBankOrder } from "./bank-rails.ts";
import { type BankTransferRow, toBankTransferDto } from "./bank-transfer-dto.ts";
import { emitBankTransferEvent } from "./bank-transfer-events.ts";
import { acceptedByBank, BANK_TRANSFER_CREATE } from "./bank-transfer-outcome.ts";
import { moveBankTransfer } from "./move-bank-transfer.ts";

type CreateRequest = components["schemas"]["CreateBankTransferRequest"];

export interface CreateBankTransferOptions {
  auth: AuthContext;
  request: CreateRequest;
  requestId: string;
  /** The sandbox simulator's books (a live bank ignores them). */
  books: SimulatedBankStore;
}

export async function createBankTransfer(
  uow: UnitOfWork,
  options: CreateBankTransferOptions,
): Promise<ProviderStep<{ providerTransferId: string }, OperationOutcome<"createBankTransfer">>> {
  const { auth, request, requestId, books } = options;
  const { rail, amountMinor, errors } = validateBankOrder(request, {
    amount: "/body/amount",
    currency: "/body/currency",
    source: "/body/source",
    destination: "/body/destination",
    rail: "/body/rail",
    reference: "/body/reference",
  });
  if (errors.length > 0 || amountMinor === null) {
    throw new ServiceError("VALIDATION_ERROR", errors.map((e) => `${e.path} ${e.message}`).join("; "), { errors });
  }
  const provider = await connectProvider(uow.tx, auth, "bank_transfer");
  await enforceCompliance({
    uow,
    auth,
    requestId,
    subject: {
      operation: "createBankTransfer",
      parties: [
        { role: "source account holder", name: request.source.accountHolderName, country: request.source.country },
        { role: "destination account holder", name: request.destination.accountHolderName, country: request.destination.country },
      ],
      jurisdictions: {
        jurisdiction: request.jurisdiction,
        operatorJurisdiction: request.operatorJurisdiction,
        senderJurisdiction: request.senderJurisdiction,
        receiverJurisdiction: request.receiverJurisdiction,
      },
      amount: { value: request.amount, currency: request.currency },
    },
  });

  const now = uow.now;
  const id = newId("bt");
  // The order as the provider is asked to carry it, and as it is stored.
  const order = {
    currency: request.currency,
    rail,
    source: request.source,
    destination: request.destination,
    reference: request.reference ?? null,
    purposeCode: request.purposeCode ?? null,
  };
  // The intent, as the API shows it; nothing in this transaction reads it back, so it is written with the commit.
  const row: BankTransferRow = {
    id,
    organizationId: auth.organizationId,
    environment: auth.environment,
    status: "pending",
    amountMinor: amountMinor.toString(),
    ...order,
    jurisdiction: request.jurisdiction ?? [],
    operatorJurisdiction: request.operatorJurisdiction ?? null,
    senderJurisdiction: request.senderJurisdiction,
    receiverJurisdiction: request.receiverJurisdiction,
    ...servedBy(provider),
    providerTransferId: null,
    providerReference: null,
    statusHistory: [{ status: "pending", at: now.toISOString() }],
    failureReason: null,
    version: 1,
    createdAt: now,
    updatedAt: now,
  };
  uow.insertLater("BankTransfer", {
    ...row,
    source: JSON.stringify(row.source),
    destination: JSON.stringify(row.destination),
    statusHistory: JSON.stringify(row.statusHistory),
  });

  return afterProviderCall<{ providerTransferId: string }, OperationOutcome<"createBankTransfer">>({
    // The transfer id is the provider's idempotency key: a retried call never creates a second transfer there, and the
    // reconciler looks the transfer up by it.
    intent: {
      family: BANK_TRANSFER_CREATE,
      resourceId: id,
      reference: id,
      organizationId: auth.organizationId,
      environment: auth.environment,
    },
    call: () =>
      callProvider({ provider: "bank_transfer", what: "create the transfer" }, () =>
        provider.api.create({ config: provider.config, now, books }, { idempotencyKey: id, amount: request.amount, ...order }),
      ),
    async onResult(uow2, { providerTransferId }) {
      const created = acceptedByBank(uow2, row, providerTransferId, { announce: true });
      return { status: 201, body: toBankTransferDto(created) };
    },
    // The bank may have executed it: the transfer is announced and shown `processing` until the reconciler confirms.
    async onUnknown(uow2) {
      emitBankTransferEvent(uow2, row);
      const handedOver = await moveBankTransfer(uow2, row, "processing", uow2.now);
      if (!handedOver) throw new Error(`bank transfer ${id} moved before its creation was answered`);
      return { status: 202, body: toBankTransferDto(handedOver) };
    },
    // The provider refused or could not be reached: the transfer was never created; nothing stays recorded.
    async onFailure(uow2) {
      uow2.deferLater((db) => db.deleteFrom("BankTransfer").where("id", "=", id));
    },
  });
}
