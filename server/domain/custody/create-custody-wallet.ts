// POST custody/wallets. Shape 1 requests a wallet (pending_approval + an approval request; no provider call): one
// transaction. Shape 2 activates it once a second actor approved: the wallet is created at the provider (keyed by
// custodyWalletId, so a retry finds the vault instead of creating another). That takes two transactions, as no
// transaction stays open across a provider call: the first checks the wallet and uses its approval, and commits that
// with an open provider intent (issue 26) before the provider is called; the second makes the wallet active
// (compare-and-set on the version read in the first). A provider refusal releases the approval (unused again) and leaves
// the wallet pending_approval. A lost answer (the call timed out: the custodian may have created the vault) makes the
// wallet `processing`, answered 202, and the reconciler (reconcile-custody-wallet.ts) asks the custodian by the wallet id
// and settles it; so does a crash between the two transactions. A rejected or expired approval makes the wallet rejected
// in one transaction (no provider call).
import type { AuthContext } from "../../context.ts";
import type { Queryable, Tx } from "../../db/kysely.ts";
import { ownedBy } from "../../db/owned-by.ts";
import type { UnitOfWork } from "../../db/unit-of-work/index.ts";
import { notFound, ServiceError } from "../../errors/service-error.ts";
import { newId } from "../../lib/ids.ts";
import type { ProviderWallet } from "../../providers/capabilities/custody.ts";
import type { OperationOutcome } from "../../spec/operation-types.ts";
import { recordActivity } from "../activity/record-activity.ts";
import { approvalStillPending } from "../approvals/approval-rules.ts";
import { consumeApproval, releaseApproval } from "../approvals/consume-approval.ts";
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
  custodyStep,
  dispatchCustodyWrite,
} from "./custody-provider.ts";
import type { CustodyWalletRequest } from "./custody-requests.ts";
import { CUSTODY_WALLET_ACTIVATE, moveWallet, notPending } from "./custody-wallet-moves.ts";
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

async function activateWallet(options: WalletOptions, request: ActivateShape, provider: CustodyProvider): Promise<WalletOutcome> {
  const { uow, books, auth } = options;
  const wallet = await findCustodyWallet(uow.tx, auth, request.custodyWalletId, { lock: true });
  const { status } = await approvalFor(uow.tx, auth, request.approvalRequestId, wallet, WALLET_ACTION, uow.now);
  if (wallet.status !== "pending_approval") throw notPending(wallet);
  if (status === "pending") throw approvalStillPending(request.approvalRequestId);
  if (status === "rejected" || status === "expired") {
    const row = await moveWallet(uow, wallet, { status: "rejected" });
    return { status: 200, body: toCustodyWalletDto(row) };
  }
  // Used up in the first transaction, with the intent, before the provider is called: whatever happens next, the
  // approval cannot activate the wallet twice. A refusal releases it (onFailure).
  const consumed = await consumeApproval(uow, {
    auth,
    approvalRequestId: request.approvalRequestId,
    action: WALLET_ACTION,
    payload: walletApprovalPayload(wallet),
  });
  const ctx = provider.context({ books });
  return custodyStep<ProviderWallet, WalletAnswer>({
    intent: {
      family: CUSTODY_WALLET_ACTIVATE,
      resourceId: wallet.id,
      reference: wallet.id,
      organizationId: wallet.organizationId,
      environment: wallet.environment,
    },
    // Look for a vault created under this key first (a retry after a failure or crash), then create one.
    call: async () =>
      (await callProvider({ provider: "custody", what: "look up the wallet" }, () =>
        provider.api.findWallet(ctx, { idempotencyKey: wallet.id }),
      )) ??
      callProvider({ provider: "custody", what: "create the wallet" }, () =>
        provider.api.createWallet(ctx, { idempotencyKey: wallet.id, chain: wallet.chain, type: wallet.type, label: wallet.label }),
      ),
    async onResult(uow2, vault) {
      // A compare-and-set on the version the first transaction read: a writer that moved the wallet since wins (409).
      const row = await activateWith(uow2, wallet, vault, servedBy(provider));
      return { status: 200, body: toCustodyWalletDto(row) };
    },
    onFailure: (uow2) => releaseApproval(uow2, consumed),
    // The custodian may have created it: `processing` (announced), until the reconciler confirms.
    onUnknown: async (uow2) => ({ status: 202, body: toCustodyWalletDto(await moveWallet(uow2, wallet, { status: "processing" })) }),
  });
}

/** Shape 2's answers once the provider was called: 200 active, or 202 processing. */
type WalletAnswer = Extract<OperationOutcome<"createCustodyWallet">, { status: 200 | 202 }>;

/** The wallet active with the provider's vault, its `custody_wallet.activated` event and the activity the metrics count
 * (once per wallet: check:invariants holds it). The request's second transaction and the reconciler both end here. */
export async function activateWith(
  uow: UnitOfWork,
  wallet: CustodyWalletRow,
  vault: ProviderWallet,
  served?: Pick<CustodyWalletRow, "provider" | "connectionId" | "simulated">,
): Promise<CustodyWalletRow> {
  const row = await moveWallet(uow, wallet, {
    status: "active",
    address: vault.address,
    providerWalletId: vault.providerWalletId,
    ...served,
  });
  recordActivity(uow, {
    organizationId: row.organizationId,
    environment: row.environment,
    type: "custody_wallet.created",
    resourceId: row.id,
  });
  return row;
}
