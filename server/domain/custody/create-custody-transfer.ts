// POST custody/transfers, three shapes:
//   1 request  (walletId, destination, asset, amountMinor, …): screening + wallet policy → pending_approval (v1) with an
//              approval request; no provider call.
//   2 submit   (custodyTransferId, approvalRequestId): the approval must be approved (403 otherwise; a rejected or
//              expired one settles the transfer rejected / cancelled). The approval is consumed and the transfer made
//              `approved` in a first transaction, then submitted (→ submitted) in the request's transaction, so a
//              provider failure (502) leaves it `approved` for shape 3 to retry.
//   3 advance  (custodyTransferId, expectedVersion): only at that version (row-locked): approved → submit,
//              submitted → reconcile, pending_approval → settle from a rejected/expired approval; otherwise 409.
import type { AuthContext } from "../../context.ts";
import type { Db } from "../../db/open-database.ts";
import { notFound, ServiceError } from "../../errors/service-error.ts";
import type { components } from "../../generated/openapi.ts";
import type { CustodyTransfer } from "../../generated/prisma/client.ts";
import type { Tx } from "../../idempotency/idempotency-store.ts";
import { newId } from "../../lib/ids.ts";
import { recordActivity } from "../activity/record-activity.ts";
import { consumeApproval } from "../approvals/consume-approval.ts";
import { createApprovalRequest } from "../approvals/create-approval-request.ts";
import type { PreparedWrite } from "../bank-transfers/prepared-write.ts";
import { enforceCompliance } from "../compliance/enforce-compliance.ts";
import { formatUsd36, toUsdMinor36 } from "../compliance/usd-rates.ts";
import { parseDecimalToMinor } from "../money/minor-units.ts";
import { findCustodyWallet } from "./create-custody-wallet.ts";
import { approvalFor, TRANSFER_ACTION, transferApprovalPayload } from "./custody-approvals.ts";
import { ASSET_DECIMALS, chainCarries, isValidChainAddress, minorToAmount } from "./custody-assets.ts";
import { type CustodyTransferDto, toCustodyTransferDto } from "./custody-dto.ts";
import { type CustodyProvider, conflict, resolveCustodyProvider } from "./custody-provider.ts";
import {
  lockTransfer,
  reconcileTransfer,
  settleFromApproval,
  submitTransfer,
  TERMINAL_TRANSFER_STATUSES,
} from "./custody-transfer-steps.ts";
import { enforceWalletPolicy } from "./wallet-policy.ts";

type RequestShape = components["schemas"]["RequestCustodyTransfer"];
type SubmitShape = components["schemas"]["SubmitCustodyTransfer"];
type AdvanceShape = components["schemas"]["AdvanceCustodyTransfer"];

export interface CustodyTransferOptions {
  prisma: Db;
  auth: AuthContext;
  request: components["schemas"]["CustodyTransferRequest"];
  requestId: string;
}

export async function createCustodyTransfer(options: CustodyTransferOptions): Promise<PreparedWrite<CustodyTransferDto>> {
  const provider = await resolveCustodyProvider(options.prisma, options.auth);
  const request = options.request;
  if ("expectedVersion" in request) return advanceTransfer(options, request as AdvanceShape, provider);
  if ("approvalRequestId" in request) return submitWithApproval(options, request as SubmitShape, provider);
  return requestTransfer(options, request as RequestShape, provider);
}

export async function findCustodyTransfer(
  db: Tx,
  auth: AuthContext,
  where: { id: string } | { providerTransferId: string },
): Promise<CustodyTransfer> {
  const row = await db.custodyTransfer.findFirst({
    where: { ...where, organizationId: auth.organizationId, environment: auth.environment },
  });
  if (!row) throw notFound("Custody transfer");
  return row;
}

const invalid = (path: string, message: string) =>
  new ServiceError("VALIDATION_ERROR", `${path} ${message}`, { errors: [{ path, message }] });

async function requestTransfer(options: CustodyTransferOptions, request: RequestShape, provider: CustodyProvider) {
  const { prisma, auth, requestId } = options;
  const wallet = await findCustodyWallet(prisma, auth, request.walletId);
  const decimals = ASSET_DECIMALS[request.asset] ?? 6;
  const amountMinor = BigInt(request.amountMinor);
  if (!chainCarries(wallet.chain, request.asset)) throw invalid("/body/asset", `${request.asset} is not carried on ${wallet.chain}`);
  if (!isValidChainAddress(wallet.chain, request.destination)) throw invalid("/body/destination", `is not a valid ${wallet.chain} address`);
  if (amountMinor <= 0n) throw invalid("/body/amountMinor", "must be greater than zero");
  if (request.amount !== undefined && parseDecimalToMinor(request.amount, decimals) !== amountMinor) {
    throw invalid("/body/amount", `must equal amountMinor (${minorToAmount(amountMinor, decimals)} ${request.asset})`);
  }
  if (wallet.status !== "active") throw conflict(`The wallet is ${wallet.status}; transfers need an active wallet`);
  const value = minorToAmount(amountMinor, decimals);
  // Native assets have no sandbox USD rate: the organization's USD limit does not apply to them (wallet limits do).
  const usd = toUsdMinor36(value, request.asset);
  await enforceCompliance({
    prisma,
    auth,
    requestId,
    subject: {
      operation: "createCustodyTransfer",
      addresses: [{ role: "destination", chain: wallet.chain, address: request.destination }],
      jurisdictions: {
        jurisdiction: request.jurisdiction,
        operatorJurisdiction: request.operatorJurisdiction,
        senderJurisdiction: request.senderJurisdiction,
        receiverJurisdiction: request.receiverJurisdiction,
      },
      ...(usd.kind === "ok" ? { amount: { value, currency: request.asset } } : {}),
    },
  });
  return {
    status: 201,
    async commit(tx: Tx) {
      const now = new Date();
      await tx.$queryRaw`SELECT id FROM "CustodyWallet" WHERE id = ${wallet.id} FOR UPDATE`;
      await enforceWalletPolicy(tx, wallet, { destination: request.destination, asset: request.asset, amountMinor, now });
      const id = newId("ct");
      const approval = await createApprovalRequest(tx, {
        auth,
        kind: "custody_transfer",
        action: TRANSFER_ACTION,
        scope: "wallets:write",
        payload: transferApprovalPayload({
          id,
          walletId: wallet.id,
          destination: request.destination,
          asset: request.asset,
          amountMinor: amountMinor.toString(),
        }),
        resourceId: id,
      });
      const row = await tx.custodyTransfer.create({
        data: {
          id,
          organizationId: auth.organizationId,
          environment: auth.environment,
          walletId: wallet.id,
          status: "pending_approval",
          chain: wallet.chain,
          destination: request.destination,
          asset: request.asset,
          amountMinor: amountMinor.toString(),
          note: request.note ?? null,
          approvalRequestId: approval.approvalRequestId,
          provider: provider.slug,
          connectionId: provider.connectionId,
          simulated: provider.simulated,
          jurisdiction: request.jurisdiction ?? [],
          operatorJurisdiction: request.operatorJurisdiction ?? null,
          senderJurisdiction: request.senderJurisdiction ?? null,
          receiverJurisdiction: request.receiverJurisdiction ?? null,
          createdAt: now,
          updatedAt: now,
        },
      });
      await recordActivity(tx, {
        organizationId: auth.organizationId,
        environment: auth.environment,
        type: "custody_transfer.created",
        resourceId: id,
        ...(usd.kind === "ok" ? { amountUsd: formatUsd36(usd.usdMinor) } : {}),
      });
      return toCustodyTransferDto(row);
    },
  };
}

async function submitWithApproval(options: CustodyTransferOptions, request: SubmitShape, provider: CustodyProvider) {
  const { prisma, auth } = options;
  const transfer = await findCustodyTransfer(prisma, auth, { id: request.custodyTransferId });
  const { status } = await approvalFor(prisma, auth, request.approvalRequestId, transfer, TRANSFER_ACTION);
  // A retry after the approval was consumed but the submission failed or crashed continues with the submission.
  const resuming = transfer.status === "approved";
  if (transfer.status !== "pending_approval" && !resuming) {
    throw conflict(`The transfer is ${transfer.status}; shape 2 needs a pending_approval transfer (use shape 3 to advance it)`);
  }
  if (!resuming && status === "pending") {
    throw new ServiceError(
      "FORBIDDEN",
      `Approval request ${request.approvalRequestId} is still pending; another actor must approve it first`,
    );
  }
  if (!resuming && status === "approved") {
    // Phase 1, committed on its own: the approval is used and the transfer approved, whatever the provider does next.
    await prisma.$transaction(async (tx) => {
      const row = await lockTransfer(tx, transfer.id);
      if (row.status !== "pending_approval") throw conflict(`The transfer is ${row.status}; it was moved concurrently`);
      await consumeApproval(tx, {
        auth,
        approvalRequestId: request.approvalRequestId,
        action: TRANSFER_ACTION,
        payload: transferApprovalPayload({ ...row, amountMinor: row.amountMinor.toFixed(0) }),
      });
      await tx.custodyTransfer.update({
        where: { id: row.id, version: row.version },
        data: { status: "approved", version: { increment: 1 }, updatedAt: new Date() },
      });
    });
  }
  return {
    status: 200,
    async commit(tx: Tx) {
      const row = await lockTransfer(tx, transfer.id);
      if (row.status === "pending_approval") {
        // Rejected or expired approval: settle the transfer.
        const settled = await settleFromApproval(tx, row);
        if (!settled) throw conflict("The approval request is neither approved, rejected nor expired");
        return toCustodyTransferDto(settled);
      }
      if (row.status !== "approved") throw conflict(`The transfer is ${row.status}; it was moved concurrently`);
      return toCustodyTransferDto(await submitTransfer(tx, provider, row));
    },
  };
}

async function advanceTransfer(options: CustodyTransferOptions, request: AdvanceShape, provider: CustodyProvider) {
  const { prisma, auth } = options;
  const transfer = await findCustodyTransfer(prisma, auth, { id: request.custodyTransferId });
  return {
    status: 200,
    async commit(tx: Tx) {
      const row = await lockTransfer(tx, transfer.id);
      if (row.version !== request.expectedVersion) {
        throw conflict(`expectedVersion ${request.expectedVersion} does not match the transfer's version ${row.version}; read it again`);
      }
      if (row.status === "approved") return toCustodyTransferDto(await submitTransfer(tx, provider, row));
      if (row.status === "submitted") return toCustodyTransferDto(await reconcileTransfer(tx, provider, row));
      if (row.status === "pending_approval") {
        const settled = await settleFromApproval(tx, row);
        if (settled) return toCustodyTransferDto(settled);
        throw conflict("The transfer awaits its approval: once approved, submit it with shape 2");
      }
      if (TERMINAL_TRANSFER_STATUSES.has(row.status))
        throw conflict(`The transfer is ${row.status}, a final state; there is no step to take`);
      throw conflict(`The transfer is ${row.status}; no step applies`);
    },
  };
}
