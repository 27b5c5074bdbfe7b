// POST custody/transfers, three shapes:
//   1 request  (walletId, destination, asset, amountMinor, …): screening + wallet policy → pending_approval (v1) with an
//              approval request; no provider call. One transaction.
//   2 submit   (custodyTransferId, approvalRequestId): the approval must be approved (403 otherwise; a rejected or
//              expired one settles the transfer rejected / cancelled, in one transaction). The approval is consumed and
//              the transfer made `approved` in the first transaction, which commits before the provider is called; the
//              second records the submission (→ submitted). So a provider failure (502) leaves it `approved` for shape 3
//              (or shape 2 again) to retry.
//   3 advance  (custodyTransferId, expectedVersion): only at that version: approved → submit, submitted → reconcile (both
//              two transactions, the second compares against that version), pending_approval → settle from a
//              rejected/expired approval (one transaction, row-locked); otherwise 409. A `submitted` transfer whose
//              submission's outcome is being confirmed (no transferId: the provider's answer was lost) is answered as
//              stored: the reconciler settles it (reconcile-custody-transfer.ts).
import type { AuthContext } from "../../context.ts";
import type { Queryable, Tx } from "../../db/kysely.ts";
import { ownedBy } from "../../db/owned-by.ts";
import { notFound, ServiceError } from "../../errors/service-error.ts";
import { ASSET_DECIMALS } from "../../lib/chains/chain-assets.ts";
import { newId } from "../../lib/ids.ts";
import { numericToMinor } from "../../lib/money/minor-units.ts";
import { recordActivity } from "../activity/record-activity.ts";
import { approvalStillPending } from "../approvals/approval-rules.ts";
import { consumeApproval } from "../approvals/consume-approval.ts";
import { createApprovalRequest } from "../approvals/create-approval-request.ts";
import { enforceCompliance } from "../compliance/enforce-compliance.ts";
import { formatUsd36, toUsdMinor36 } from "../compliance/usd-rates.ts";
import { servedBy } from "../providers/connect-provider.ts";
import { findCustodyWallet } from "./create-custody-wallet.ts";
import { approvalFor, TRANSFER_ACTION, transferApprovalPayload } from "./custody-approvals.ts";
import { chainCarries, isValidChainAddress, minorToAmount } from "./custody-assets.ts";
import { type CustodyTransferRow, toCustodyTransferDto } from "./custody-dto.ts";
import { emitCustodyTransferEvent } from "./custody-events.ts";
import { type CustodyOutcome, type CustodyProvider, type CustodyWriteOptions, conflict, dispatchCustodyWrite } from "./custody-provider.ts";
import type { CustodyTransferRequest } from "./custody-requests.ts";
import {
  answer,
  awaitsConfirmation,
  moveTransfer,
  reconcileStep,
  settleFromApproval,
  submitStep,
  TERMINAL_TRANSFER_STATUSES,
} from "./custody-transfer-steps.ts";
import { enforceWalletPolicy } from "./wallet-policy.ts";

type RequestShape = Extract<CustodyTransferRequest, { kind: "request" }>;
type SubmitShape = Extract<CustodyTransferRequest, { kind: "submit" }>;
type AdvanceShape = Extract<CustodyTransferRequest, { kind: "advance" }>;

type TransferOptions = CustodyWriteOptions<CustodyTransferRequest>;
type TransferOutcome = CustodyOutcome<"createCustodyTransfer">;

export async function createCustodyTransfer(options: TransferOptions): Promise<TransferOutcome> {
  return dispatchCustodyWrite(options, { request: requestTransfer, submit: submitWithApproval, advance: advanceTransfer });
}

/** The organization's transfer (404 otherwise); `lock` holds its row for the rest of the transaction. */
export async function findCustodyTransfer(
  db: Queryable | Tx,
  auth: AuthContext,
  where: { id: string } | { providerTransferId: string },
  options: { lock?: boolean } = {},
): Promise<CustodyTransferRow> {
  let query = db.selectFrom("CustodyTransfer").selectAll().where(ownedBy(auth));
  query = "id" in where ? query.where("id", "=", where.id) : query.where("providerTransferId", "=", where.providerTransferId);
  if (options.lock) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  if (!row) throw notFound("Custody transfer");
  return row;
}

const invalid = (path: string, message: string) =>
  new ServiceError("VALIDATION_ERROR", `${path} ${message}`, { errors: [{ path, message }] });

async function requestTransfer(options: TransferOptions, request: RequestShape, provider: CustodyProvider): Promise<TransferOutcome> {
  const { uow, auth, requestId } = options;
  // Locked for the rest of the transaction, so the wallet policy's daily total cannot be raced.
  const wallet = await findCustodyWallet(uow.tx, auth, request.walletId, { lock: true });
  const decimals = ASSET_DECIMALS[request.asset] ?? 6;
  const amountMinor = BigInt(request.amountMinor);
  if (!chainCarries(wallet.chain, request.asset)) throw invalid("/body/asset", `${request.asset} is not carried on ${wallet.chain}`);
  if (!isValidChainAddress(wallet.chain, request.destination)) throw invalid("/body/destination", `is not a valid ${wallet.chain} address`);
  if (amountMinor <= 0n) throw invalid("/body/amountMinor", "must be greater than zero");
  if (wallet.status !== "active") throw conflict(`The wallet is ${wallet.status}; transfers need an active wallet`);
  const value = minorToAmount(amountMinor, decimals);
  // Native assets have no sandbox USD rate: the organization's USD limit does not apply to them (wallet limits do).
  const usd = toUsdMinor36(value, request.asset);
  await enforceCompliance({
    uow,
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
  await enforceWalletPolicy(uow.tx, wallet, { destination: request.destination, asset: request.asset, amountMinor, now: uow.now });
  const id = newId("ct");
  const approval = await createApprovalRequest(uow, {
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
  const row = await uow.tx
    .insertInto("CustodyTransfer")
    .values({
      id,
      organizationId: auth.organizationId,
      environment: auth.environment,
      walletId: wallet.id,
      status: "pending_approval",
      chain: wallet.chain,
      destination: request.destination,
      asset: request.asset,
      amountMinor: amountMinor.toString(),
      // `amount` is "any JSON" in the description: kept exactly as given and never read (amountMinor is what moves).
      amountGiven: Object.hasOwn(request, "amount") ? JSON.stringify({ value: request.amount }) : null,
      note: request.note ?? null,
      approvalRequestId: approval.approvalRequestId,
      ...servedBy(provider),
      jurisdiction: request.jurisdiction ?? [],
      operatorJurisdiction: request.operatorJurisdiction ?? null,
      senderJurisdiction: request.senderJurisdiction ?? null,
      receiverJurisdiction: request.receiverJurisdiction ?? null,
      createdAt: uow.now,
      updatedAt: uow.now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  recordActivity(uow, {
    organizationId: auth.organizationId,
    environment: auth.environment,
    type: "custody_transfer.created",
    resourceId: id,
    ...(usd.kind === "ok" ? { amountUsd: formatUsd36(usd.usdMinor) } : {}),
  });
  emitCustodyTransferEvent(uow, row);
  return { status: 201, body: toCustodyTransferDto(row) };
}

async function submitWithApproval(options: TransferOptions, request: SubmitShape, provider: CustodyProvider): Promise<TransferOutcome> {
  const { uow, books, auth } = options;
  let row = await findCustodyTransfer(uow.tx, auth, { id: request.custodyTransferId }, { lock: true });
  const { status } = await approvalFor(uow.tx, auth, request.approvalRequestId, row, TRANSFER_ACTION, uow.now);
  // A retry after the approval was consumed but the submission failed continues with the submission.
  const resuming = row.status === "approved";
  if (row.status !== "pending_approval" && !resuming) {
    throw conflict(`The transfer is ${row.status}; shape 2 needs a pending_approval transfer (use shape 3 to advance it)`);
  }
  if (!resuming) {
    if (status === "pending") throw approvalStillPending(request.approvalRequestId);
    if (status !== "approved") {
      // Rejected or expired approval: settle the transfer.
      const settled = await settleFromApproval(uow, row);
      if (!settled) throw conflict("The approval request is neither approved, rejected nor expired");
      return { status: 200, body: toCustodyTransferDto(settled) };
    }
    // The first transaction commits the approval used and the transfer approved, whatever the provider does next.
    await consumeApproval(uow, {
      auth,
      approvalRequestId: request.approvalRequestId,
      action: TRANSFER_ACTION,
      payload: transferApprovalPayload({ ...row, amountMinor: numericToMinor(row.amountMinor, 0).toString() }),
    });
    // Under the row lock taken above, so no other writer can have moved it.
    row = await moveTransfer(uow, row, { status: "approved" });
  }
  return submitStep(uow, books, provider, row, (current) => conflict(`The transfer is ${current.status}; it was moved concurrently`));
}

async function advanceTransfer(options: TransferOptions, request: AdvanceShape, provider: CustodyProvider): Promise<TransferOutcome> {
  const { uow, books, auth } = options;
  const row = await findCustodyTransfer(uow.tx, auth, { id: request.custodyTransferId }, { lock: true });
  const stale = (version: number) =>
    conflict(`expectedVersion ${request.expectedVersion} does not match the transfer's version ${version}; read it again`);
  if (row.version !== request.expectedVersion) throw stale(row.version);
  // A writer that moves the transfer between this request's two transactions wins: this one answers as a stale version.
  const onLost = (current: CustodyTransferRow) => stale(current.version);
  if (row.status === "approved") return submitStep(uow, books, provider, row, onLost);
  // Its submission's outcome is being confirmed (no `transferId` yet): nothing to ask the provider about; as stored.
  if (awaitsConfirmation(row)) return answer(row);
  if (row.status === "submitted") return reconcileStep(books, provider, row, onLost);
  if (row.status === "pending_approval") {
    const settled = await settleFromApproval(uow, row);
    if (settled) return { status: 200, body: toCustodyTransferDto(settled) };
    throw conflict("The transfer awaits its approval: once approved, submit it with shape 2");
  }
  if (TERMINAL_TRANSFER_STATUSES.has(row.status)) throw conflict(`The transfer is ${row.status}, a final state; there is no step to take`);
  throw conflict(`The transfer is ${row.status}; no step applies`);
}
