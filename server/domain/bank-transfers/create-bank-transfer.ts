// POST bank-transfer: validate the order against its rail → resolve the provider (fail closed in production) → screen
// and evaluate policy → record `pending` and hand it to the provider in one transaction.
import type { AuthContext } from "../../context.ts";
import type { Db } from "../../db/open-database.ts";
import { ServiceError } from "../../errors/service-error.ts";
import type { components } from "../../generated/openapi.ts";
import { newId } from "../../lib/ids.ts";
import { recordActivity } from "../activity/record-activity.ts";
import { enforceCompliance } from "../compliance/enforce-compliance.ts";
import { formatUsd36, toUsdMinor36 } from "../compliance/usd-rates.ts";
import { validateBankOrder } from "./bank-rails.ts";
import { type BankTransferDto, toBankTransferDto } from "./bank-transfer-dto.ts";
import { callBankProvider } from "./call-bank-provider.ts";
import type { PreparedWrite } from "./prepared-write.ts";
import { resolveBankProvider } from "./resolve-bank-provider.ts";

type CreateRequest = components["schemas"]["CreateBankTransferRequest"];

export interface CreateBankTransferOptions {
  prisma: Db;
  auth: AuthContext;
  request: CreateRequest;
  requestId: string;
}

export async function createBankTransfer(options: CreateBankTransferOptions): Promise<PreparedWrite<BankTransferDto>> {
  const { prisma, auth, request, requestId } = options;
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
  const provider = await resolveBankProvider(prisma, auth);
  await enforceCompliance({
    prisma,
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

  return {
    status: 201,
    async commit(tx) {
      const now = new Date();
      const id = newId("bt");
      // Recorded first: if the record cannot be written, nothing reaches the provider.
      await tx.bankTransfer.create({
        data: {
          id,
          organizationId: auth.organizationId,
          environment: auth.environment,
          status: "pending",
          amountMinor: amountMinor.toString(),
          currency: request.currency,
          rail,
          source: request.source as object,
          destination: request.destination as object,
          reference: request.reference ?? null,
          purposeCode: request.purposeCode ?? null,
          jurisdiction: request.jurisdiction ?? [],
          operatorJurisdiction: request.operatorJurisdiction ?? null,
          senderJurisdiction: request.senderJurisdiction,
          receiverJurisdiction: request.receiverJurisdiction,
          provider: provider.slug,
          connectionId: provider.connectionId,
          simulated: provider.simulated,
          statusHistory: [{ status: "pending", at: now.toISOString() }],
          createdAt: now,
          updatedAt: now,
        },
      });
      // A provider failure rolls the record back (502, nothing recorded). The transfer id is the provider's
      // idempotency key, so a retried commit never creates a second transfer at the provider.
      const { providerTransferId } = await callBankProvider("create the transfer", () =>
        provider.api.create(
          { config: provider.config, now },
          {
            idempotencyKey: id,
            amount: request.amount,
            currency: request.currency,
            rail,
            source: request.source,
            destination: request.destination,
            reference: request.reference ?? null,
            purposeCode: request.purposeCode ?? null,
          },
        ),
      );
      const row = await tx.bankTransfer.update({ where: { id }, data: { providerTransferId } });
      const usd = toUsdMinor36(request.amount, request.currency);
      await recordActivity(tx, {
        organizationId: auth.organizationId,
        environment: auth.environment,
        type: "bank_transfer.created",
        resourceId: id,
        ...(usd.kind === "ok" ? { amountUsd: formatUsd36(usd.usdMinor) } : {}),
      });
      return toBankTransferDto(row);
    },
  };
}
