// POST custody/wallets. Shape 1 requests a wallet (pending_approval + an approval request; no provider call).
// Shape 2 activates it once a second actor approved: the approval is consumed and the wallet created at the provider
// (keyed by custodyWalletId, so a retry finds the vault instead of creating another) in one transaction.
import type { AuthContext } from "../../context.ts";
import type { Db } from "../../db/open-database.ts";
import { notFound, ServiceError } from "../../errors/service-error.ts";
import type { components } from "../../generated/openapi.ts";
import type { CustodyWallet } from "../../generated/prisma/client.ts";
import type { Tx } from "../../idempotency/idempotency-store.ts";
import { newId } from "../../lib/ids.ts";
import { recordActivity } from "../activity/record-activity.ts";
import { consumeApproval } from "../approvals/consume-approval.ts";
import { createApprovalRequest } from "../approvals/create-approval-request.ts";
import type { PreparedWrite } from "../bank-transfers/prepared-write.ts";
import { enforceCompliance } from "../compliance/enforce-compliance.ts";
import { approvalFor, WALLET_ACTION, walletApprovalPayload } from "./custody-approvals.ts";
import { chainCarries, isValidChainAddress } from "./custody-assets.ts";
import { type CustodyWalletDto, toCustodyWalletDto } from "./custody-dto.ts";
import { type CustodyProvider, callCustody, conflict, resolveCustodyProvider } from "./custody-provider.ts";

type RequestShape = components["schemas"]["RequestCustodyWallet"];
type ActivateShape = components["schemas"]["ActivateCustodyWallet"];

export interface CustodyWalletOptions {
  prisma: Db;
  auth: AuthContext;
  request: components["schemas"]["CustodyWalletRequest"];
  requestId: string;
}

export async function createCustodyWallet(options: CustodyWalletOptions): Promise<PreparedWrite<CustodyWalletDto>> {
  // Fails closed before anything is read or written.
  const provider = await resolveCustodyProvider(options.prisma, options.auth);
  return "custodyWalletId" in options.request
    ? activateWallet(options, options.request as ActivateShape, provider)
    : requestWallet(options, options.request as RequestShape, provider);
}

async function requestWallet(options: CustodyWalletOptions, request: RequestShape, provider: CustodyProvider) {
  const { prisma, auth, requestId } = options;
  const errors = [];
  for (const [i, asset] of (request.policy?.allowedAssets ?? []).entries()) {
    if (!chainCarries(request.chain, asset))
      errors.push({ path: `/body/policy/allowedAssets/${i}`, message: `${asset} is not carried on ${request.chain}` });
  }
  for (const [i, limit] of (request.policy?.limits ?? []).entries()) {
    if (!chainCarries(request.chain, limit.asset))
      errors.push({ path: `/body/policy/limits/${i}/asset`, message: `${limit.asset} is not carried on ${request.chain}` });
  }
  for (const [i, address] of (request.policy?.destinationAllowlist ?? []).entries()) {
    if (!isValidChainAddress(request.chain, address))
      errors.push({ path: `/body/policy/destinationAllowlist/${i}`, message: `is not a valid ${request.chain} address` });
  }
  if (errors.length > 0) throw new ServiceError("VALIDATION_ERROR", errors.map((e) => `${e.path} ${e.message}`).join("; "), { errors });
  if (request.jurisdiction?.length || request.operatorJurisdiction) {
    await enforceCompliance({
      prisma,
      auth,
      requestId,
      subject: {
        operation: "createCustodyWallet",
        jurisdictions: { jurisdiction: request.jurisdiction, operatorJurisdiction: request.operatorJurisdiction },
      },
    });
  }
  return {
    status: 201,
    async commit(tx: Tx) {
      const now = new Date();
      const id = newId("cw");
      const policy = request.policy ?? null;
      const approval = await createApprovalRequest(tx, {
        auth,
        kind: "custody_wallet",
        action: WALLET_ACTION,
        scope: "wallets:write",
        payload: walletApprovalPayload({ id, label: request.label, chain: request.chain, type: request.type, policy }),
        resourceId: id,
      });
      const row = await tx.custodyWallet.create({
        data: {
          id,
          organizationId: auth.organizationId,
          environment: auth.environment,
          status: "pending_approval",
          label: request.label,
          chain: request.chain,
          type: request.type,
          policy: policy ?? undefined,
          approvalRequestId: approval.approvalRequestId,
          provider: provider.slug,
          connectionId: provider.connectionId,
          simulated: provider.simulated,
          jurisdiction: request.jurisdiction ?? [],
          operatorJurisdiction: request.operatorJurisdiction ?? null,
          createdAt: now,
          updatedAt: now,
        },
      });
      await recordActivity(tx, {
        organizationId: auth.organizationId,
        environment: auth.environment,
        type: "custody_wallet.requested",
        resourceId: id,
      });
      return toCustodyWalletDto(row);
    },
  };
}

export async function findCustodyWallet(db: Tx, auth: AuthContext, id: string): Promise<CustodyWallet> {
  const row = await db.custodyWallet.findFirst({ where: { id, organizationId: auth.organizationId, environment: auth.environment } });
  if (!row) throw notFound("Custody wallet");
  return row;
}

async function lockWallet(tx: Tx, id: string): Promise<CustodyWallet> {
  await tx.$queryRaw`SELECT id FROM "CustodyWallet" WHERE id = ${id} FOR UPDATE`;
  return tx.custodyWallet.findUniqueOrThrow({ where: { id } });
}

async function activateWallet(options: CustodyWalletOptions, request: ActivateShape, provider: CustodyProvider) {
  const { prisma, auth } = options;
  const wallet = await findCustodyWallet(prisma, auth, request.custodyWalletId);
  const { status } = await approvalFor(prisma, auth, request.approvalRequestId, wallet, WALLET_ACTION);
  if (wallet.status !== "pending_approval")
    throw conflict(`The wallet is ${wallet.status}; only a pending_approval wallet can be activated`);
  if (status === "pending") {
    throw new ServiceError(
      "FORBIDDEN",
      `Approval request ${request.approvalRequestId} is still pending; another actor must approve it first`,
    );
  }
  return {
    status: 200,
    async commit(tx: Tx) {
      const current = await lockWallet(tx, wallet.id);
      if (current.status !== "pending_approval")
        throw conflict(`The wallet is ${current.status}; only a pending_approval wallet can be activated`);
      const now = new Date();
      if (status === "rejected" || status === "expired") {
        const row = await tx.custodyWallet.update({
          where: { id: current.id, version: current.version },
          data: { status: "rejected", version: { increment: 1 }, updatedAt: now },
        });
        return toCustodyWalletDto(row);
      }
      await consumeApproval(tx, {
        auth,
        approvalRequestId: request.approvalRequestId,
        action: WALLET_ACTION,
        payload: walletApprovalPayload(current),
      });
      const ctx = provider.ctx(tx);
      // Look for a vault created under this key first (a retry after a crash), then create one.
      const existing = await callCustody("look up the wallet", () => provider.api.findWallet(ctx, { idempotencyKey: current.id }));
      const vault =
        existing ??
        (await callCustody("create the wallet", () =>
          provider.api.createWallet(ctx, { idempotencyKey: current.id, chain: current.chain, type: current.type, label: current.label }),
        ));
      const row = await tx.custodyWallet.update({
        where: { id: current.id, version: current.version },
        data: {
          status: "active",
          address: vault.address,
          providerWalletId: vault.providerWalletId,
          provider: provider.slug,
          connectionId: provider.connectionId,
          simulated: provider.simulated,
          version: { increment: 1 },
          updatedAt: now,
        },
      });
      await recordActivity(tx, {
        organizationId: auth.organizationId,
        environment: auth.environment,
        type: "custody_wallet.created",
        resourceId: row.id,
      });
      return toCustodyWalletDto(row);
    },
  };
}
