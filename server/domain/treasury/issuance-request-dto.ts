// An issuance request as the API shows it. Its status is derived from its four-eyes approval request (the single
// source of truth for the decision): pending → pending_approval (or expired past expiresAt), approved, rejected.
import type { Selectable } from "kysely";
import type { DB, Queryable } from "../../db/kysely.ts";
import { ownedBy } from "../../db/owned-by.ts";
import type { components } from "../../generated/openapi.ts";
import { numericToMinor } from "../../lib/money/minor-units.ts";

export type IssuanceRequestDto = components["schemas"]["IssuanceRequest"];
export type IssuanceStatus = components["schemas"]["IssuanceRequestStatus"];

/** An issuance request as stored (amountMinor as numeric text). */
export type IssuanceRequestRow = Selectable<DB["IssuanceRequest"]>;
/** What the DTO shows of the approval request. */
export type IssuanceApproval = Pick<
  Selectable<DB["ApprovalRequest"]>,
  "status" | "expiresAt" | "decidedByActor" | "decidedByKeyId" | "decidedAt" | "decisionReason"
>;
export type IssuerRef = Pick<Selectable<DB["Issuer"]>, "chain" | "contractAddress" | "asset">;

export function issuanceStatusOf(approval: Pick<IssuanceApproval, "status" | "expiresAt">, now: Date = new Date()): IssuanceStatus {
  if (approval.status === "approved") return "approved";
  if (approval.status === "rejected") return "rejected";
  return approval.expiresAt.getTime() <= now.getTime() ? "expired" : "pending_approval";
}

export function toIssuanceRequestDto(
  row: IssuanceRequestRow,
  approval: IssuanceApproval,
  issuer: IssuerRef,
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
    amountMinor: numericToMinor(row.amountMinor, 0).toString(),
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

/** The caller's issuance requests joined with their approval requests (the status lives there) and, left-joined, their
 * issuers; one statement. */
export function selectIssuanceRequests(db: Queryable, auth: { organizationId: string; environment: string }) {
  return db
    .selectFrom("IssuanceRequest as ir")
    .innerJoin("ApprovalRequest as ar", "ar.id", "ir.approvalRequestId")
    .leftJoin("Issuer as i", "i.id", "ir.issuerId")
    .where(ownedBy(auth, "ir"))
    .selectAll("ir")
    .select([
      "ar.status as approvalStatus",
      "ar.expiresAt as approvalExpiresAt",
      "ar.decidedByActor",
      "ar.decidedByKeyId",
      "ar.decidedAt",
      "ar.decisionReason",
      "i.chain as issuerChain",
      "i.contractAddress as issuerContractAddress",
      "i.asset as issuerAsset",
    ]);
}

type JoinedRow = Awaited<ReturnType<ReturnType<typeof selectIssuanceRequests>["executeTakeFirstOrThrow"]>>;

/** The DTO of a joined row; null when its issuer is missing. */
export function joinedToDto(joined: JoinedRow, now: Date = new Date()): IssuanceRequestDto | null {
  const {
    approvalStatus,
    approvalExpiresAt,
    decidedByActor,
    decidedByKeyId,
    decidedAt,
    decisionReason,
    issuerChain,
    issuerContractAddress,
    issuerAsset,
    ...row
  } = joined;
  if (issuerChain === null || issuerContractAddress === null || issuerAsset === null) return null;
  return toIssuanceRequestDto(
    row,
    { status: approvalStatus, expiresAt: approvalExpiresAt, decidedByActor, decidedByKeyId, decidedAt, decisionReason },
    { chain: issuerChain, contractAddress: issuerContractAddress, asset: issuerAsset },
    now,
  );
}
