// POST custody/wallets. Shape 1 requests a wallet (pending_approval + an approval request; no provider call): one
// transaction. Shape 2 activates it once a second actor approved: the wallet is created at the provider (keyed by
// custodyWalletId, so a retry finds the vault instead of creating another), then the approval is consumed and the
// wallet made active. That takes two transactions, as no transaction stays open across a provider call: the first
// checks the wallet and its approval and writes nothing, the second consumes the approval and activates the wallet
// (compare-and-set on the version read in the first). A provider failure leaves the wallet pending_approval and the
// approval unused. A rejected or expired approval makes the wallet rejected in one transaction (no provider call).
import type { AuthContext } from "../../context.ts";
import { compareAndSet } from "../../db/compare-and-set.ts";
import type { Queryable, Tx } from "../../db/kysely.ts";
import { ownedBy } from "../../db/owned-by.ts";
import type { UnitOfWork } from "../../db/unit-of-work.ts";
import { notFound, ServiceError } from "../../errors/service-error.ts";
import { newId } from "../../lib/ids.ts";
import type { ProviderWallet } from "../../providers/capabilities/custody.ts";
import { recordActivity } from "../activity/record-activity.ts";
import { approvalStillPending } from "../approvals/approval-rules.ts";
import { consumeApproval } from "../approvals/consume-approval.ts";
import { createApprovalRequest } from "../approvals/create-approval-request.ts";
import { enforceCompliance } from "../compliance/enforce-compliance.ts";
import { servedBy } from "../providers/connect-provider.ts";
import { callProvider } from "../providers/provider-call.ts";
import { approvalFor, WALLET_ACTION, walletApprovalPayload } from "./custody-approvals.ts";
import { chainCarries, isValidChainAddress } from "./custody-assets.ts";
import { type CustodyWalletRow, toCustodyWalletDto } from "./custody-dto.ts";
import { emitCustodyWalletEvent } from "./custody-events.ts";
import {
  type CustodyOutcome,
  type CustodyProvider,
  type CustodyWriteOptions,
  conflict,
  custodyStep,
  dispatchCustodyWrite,
} from "./custody-provider.ts";
import type { CustodyWalletRequest } from "./custody-requests.ts";
import { policyRules } from "./wallet-policy-rules.ts";

type RequestShape = Extract<CustodyWalletRequest, { kind: "request" }>;
type ActivateShape = Extract<CustodyWalletRequest, { kind: "activate" }>;

type WalletOptions = CustodyWriteOptions<CustodyWalletRequest>;
type WalletOutcome = CustodyOutcome<"createCustodyWallet">;

export async function createCustodyWallet(options: WalletOptions): Promise<WalletOutcome> {
  return dispatchCustodyWrite(options, { request: requestWallet, activate: activateWallet });
}

async function requestWallet(options: WalletOptions, request: RequestShape, provider: CustodyProvider): Promise<WalletOutcome> {
  const { uow, auth, requestId } = options;
  const errors = [];
  const rules = policyRules(request.policy);
  for (const [i, asset] of (rules?.allowedAssets ?? []).entries()) {
    if (!chainCarries(request.chain, asset))
      errors.push({ path: `/body/policy/allowedAssets/${i}`, message: `${asset} is not carried on ${request.chain}` });
  }
  for (const [i, limit] of (rules?.limits ?? []).entries()) {
    if (!chainCarries(request.chain, limit.asset))
      errors.push({ path: `/body/policy/limits/${i}/asset`, message: `${limit.asset} is not carried on ${request.chain}` });
  }
  for (const [i, address] of (rules?.destinationAllowlist ?? []).entries()) {
    if (!isValidChainAddress(request.chain, address))
      errors.push({ path: `/body/policy/destinationAllowlist/${i}`, message: `is not a valid ${request.chain} address` });
  }
  if (errors.length > 0) throw new ServiceError("VALIDATION_ERROR", errors.map((e) => `${e.path} ${e.message}`).join("; "), { errors });
  if (request.jurisdiction?.length || request.operatorJurisdiction) {
    await enforceCompliance({
      uow,
      auth,
      requestId,
      subject: {
        operation: "createCustodyWallet",
        jurisdictions: { jurisdiction: request.jurisdiction, operatorJurisdiction: request.operatorJurisdiction },
      },
    });
  }
  const id = newId("cw");
  const policy = request.policy ?? null;
  const approval = await createApprovalRequest(uow, {
    auth,
    kind: "custody_wallet",
    action: WALLET_ACTION,
    scope: "wallets:write",
    payload: walletApprovalPayload({ id, label: request.label, chain: request.chain, type: request.type, policy }),
    resourceId: id,
  });
  const row = await uow.tx
    .insertInto("CustodyWallet")
    .values({
      id,
      organizationId: auth.organizationId,
      environment: auth.environment,
      status: "pending_approval",
      label: request.label,
      chain: request.chain,
      type: request.type,
      policy: policy === null ? null : JSON.stringify(policy),
      approvalRequestId: approval.approvalRequestId,
      ...servedBy(provider),
      jurisdiction: request.jurisdiction ?? [],
      operatorJurisdiction: request.operatorJurisdiction ?? null,
      createdAt: uow.now,
      updatedAt: uow.now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  recordActivity(uow, {
    organizationId: auth.organizationId,
    environment: auth.environment,
    type: "custody_wallet.requested",
    resourceId: id,
  });
  emitCustodyWalletEvent(uow, row);
  return { status: 201, body: toCustodyWalletDto(row) };
}

/** The organization's wallet (404 otherwise); `lock` holds its row for the rest of the transaction. */
export async function findCustodyWallet(
  db: Queryable | Tx,
  auth: AuthContext,
  id: string,
  options: { lock?: boolean } = {},
): Promise<CustodyWalletRow> {
  let query = db.selectFrom("CustodyWallet").selectAll().where("id", "=", id).where(ownedBy(auth));
  if (options.lock) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  if (!row) throw notFound("Custody wallet");
  return row;
}

const notPending = (wallet: CustodyWalletRow) =>
  conflict(`The wallet is ${wallet.status}; only a pending_approval wallet can be activated`);

async function activateWallet(options: WalletOptions, request: ActivateShape, provider: CustodyProvider): Promise<WalletOutcome> {
  const { uow, db, auth } = options;
  const wallet = await findCustodyWallet(uow.tx, auth, request.custodyWalletId, { lock: true });
  const { status } = await approvalFor(uow.tx, auth, request.approvalRequestId, wallet, WALLET_ACTION, uow.now);
  if (wallet.status !== "pending_approval") throw notPending(wallet);
  if (status === "pending") throw approvalStillPending(request.approvalRequestId);
  if (status === "rejected" || status === "expired") {
    const row = await moveWallet(uow, wallet, { status: "rejected" });
    return { status: 200, body: toCustodyWalletDto(row) };
  }
  const ctx = provider.context({ db });
  return custodyStep({
    // Look for a vault created under this key first (a retry after a failure or crash), then create one.
    call: async () =>
      (await callProvider({ provider: "custody", what: "look up the wallet" }, () =>
        provider.api.findWallet(ctx, { idempotencyKey: wallet.id }),
      )) ??
      callProvider({ provider: "custody", what: "create the wallet" }, () =>
        provider.api.createWallet(ctx, { idempotencyKey: wallet.id, chain: wallet.chain, type: wallet.type, label: wallet.label }),
      ),
    async onResult(uow2, vault: ProviderWallet) {
      // The compare-and-set first: a concurrent activation that won answers 409 with the wallet's status.
      const row = await moveWallet(uow2, wallet, {
        status: "active",
        address: vault.address,
        providerWalletId: vault.providerWalletId,
        ...servedBy(provider),
      });
      await consumeApproval(uow2, {
        auth,
        approvalRequestId: request.approvalRequestId,
        action: WALLET_ACTION,
        payload: walletApprovalPayload(wallet),
      });
      recordActivity(uow2, {
        organizationId: auth.organizationId,
        environment: auth.environment,
        type: "custody_wallet.created",
        resourceId: row.id,
      });
      return { status: 200, body: toCustodyWalletDto(row) };
    },
  });
}

type WalletMove = Partial<Pick<CustodyWalletRow, "status" | "address" | "providerWalletId" | "provider" | "connectionId" | "simulated">>;

/** Compare-and-set on the version read; 409 with the wallet's current status when another writer moved it first. Emits
 * the move's event. */
async function moveWallet(uow: UnitOfWork, wallet: CustodyWalletRow, data: WalletMove): Promise<CustodyWalletRow> {
  const row = await compareAndSet(uow.tx, "CustodyWallet", wallet, { ...data, updatedAt: uow.now });
  if (row) {
    emitCustodyWalletEvent(uow, row);
    return row;
  }
  const current = await uow.tx.selectFrom("CustodyWallet").select("status").where("id", "=", wallet.id).executeTakeFirstOrThrow();
  throw notPending({ ...wallet, status: current.status });
}
