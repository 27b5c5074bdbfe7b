// POST bank-transfer: validate the order against its rail → resolve the provider (fail closed in production) → screen
// and evaluate policy → record `pending` → hand it to the provider → record the provider's id.
//
// Two transactions (server/db/unit-of-work.ts): the provider call must not run inside a transaction. The first records
// the `pending` transfer (the intent) and the compliance decisions; the provider is called with the transfer id as its
// idempotency key; the second records the provider's id and the activity event, or deletes the intent when the provider
// failed (502, nothing recorded). If the transfer cannot be recorded, nothing reaches the provider.
import type { AuthContext } from "../../context.ts";
import { afterProviderCall, type ProviderStep, type UnitOfWork } from "../../db/unit-of-work.ts";
import { ServiceError } from "../../errors/service-error.ts";
import type { components } from "../../generated/openapi.ts";
import { newId } from "../../lib/ids.ts";
import type { OperationOutcome } from "../../spec/operation-types.ts";
import { recordActivity } from "../activity/record-activity.ts";
import { enforceCompliance } from "../compliance/enforce-compliance.ts";
import { formatUsd36, toUsdMinor36 } from "../compliance/usd-rates.ts";
import { connectProvider, servedBy } from "../providers/connect-provider.ts";
import { callProvider } from "../providers/provider-call.ts";
import { validateBankOrder } from "./bank-rails.ts";
import { type BankTransferRow, toBankTransferDto } from "./bank-transfer-dto.ts";
import { emitBankTransferEvent } from "./bank-transfer-events.ts";

type CreateRequest = components["schemas"]["CreateBankTransferRequest"];

export interface CreateBankTransferOptions {
  auth: AuthContext;
  request: CreateRequest;
  requestId: string;
}

export async function createBankTransfer(
  uow: UnitOfWork,
  options: CreateBankTransferOptions,
): Promise<ProviderStep<{ providerTransferId: string }, OperationOutcome<"createBankTransfer">>> {
  const { auth, request, requestId } = options;
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

  return afterProviderCall({
    // The transfer id is the provider's idempotency key: a retried call never creates a second transfer there.
    call: () =>
      callProvider({ provider: "bank_transfer", what: "create the transfer" }, () =>
        provider.api.create({ config: provider.config, now }, { idempotencyKey: id, amount: request.amount, ...order }),
      ),
    async onResult(uow2, { providerTransferId }) {
      uow2.deferLater((db) => db.updateTable("BankTransfer").set({ providerTransferId, updatedAt: uow2.now }).where("id", "=", id));
      const usd = toUsdMinor36(request.amount, request.currency);
      recordActivity(uow2, {
        organizationId: auth.organizationId,
        environment: auth.environment,
        type: "bank_transfer.created",
        resourceId: id,
        ...(usd.kind === "ok" ? { amountUsd: formatUsd36(usd.usdMinor) } : {}),
      });
      const created = { ...row, providerTransferId };
      emitBankTransferEvent(uow2, created);
      return { status: 201, body: toBankTransferDto(created) };
    },
    // The provider refused or could not be reached: the transfer was never created; nothing stays recorded.
    async onFailure(uow2) {
      uow2.deferLater((db) => db.deleteFrom("BankTransfer").where("id", "=", id));
    },
  });
}
