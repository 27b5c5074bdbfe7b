// An issuance request as the API shows it. Its status is derived from its four-eyes approval request (the single
// source of truth for the decision): pending → pending_approval (or expired past expiresAt), approved, rejected.
import type { components } from "../../generated/openapi.ts";
import type { ApprovalRequest, IssuanceRequest, Issuer } from "../../generated/prisma/client.ts";

export type IssuanceRequestDto = components["schemas"]["IssuanceRequest"];
export type IssuanceStatus = components["schemas"]["IssuanceRequestStatus"];

export function issuanceStatusOf(approval: Pick<ApprovalRequest, "status" | "expiresAt">, now: Date = new Date()): IssuanceStatus {
  if (approval.status === "approved") return "approved";
  if (approval.status === "rejected") return "rejected";
  return approval.expiresAt.getTime() <= now.getTime() ? "expired" : "pending_approval";
}

export function toIssuanceRequestDto(
  row: IssuanceRequest,
  approval: ApprovalRequest,
  issuer: Pick<Issuer, "chain" | "contractAddress" | "asset">,
  now: Date = new Date(),
): IssuanceRequestDto {
  const status = issuanceStatusOf(approval, now);
  return {
    issuanceRequestId: row.id,
    kind: row.kind as IssuanceRequestDto["kind"],
    status,
    issuerId: row.issuerId,
    chain: issuer.chain,
    contractAddress: issuer.contractAddress,
    asset: issuer.asset,
    amountMinor: row.amountMinor.toFixed(0),
    signerAddress: row.signerAddress,
    to: row.toAddress,
    from: row.fromAddress,
    reason: row.reason,
    approvalRequestId: row.approvalRequestId,
    approval: {
      status: status === "pending_approval" ? "pending" : status,
      decidedBy:
        approval.decidedByActor !== null && approval.decidedByKeyId !== null
          ? { apiKeyId: approval.decidedByKeyId, actor: approval.decidedByActor }
          : null,
      decidedAt: approval.decidedAt?.toISOString() ?? null,
      decisionReason: approval.decisionReason,
    },
    transaction: null,
    requestedBy: { apiKeyId: row.requestedByKeyId, actor: row.requestedByActor },
    simulated: row.simulated,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
  };
}
