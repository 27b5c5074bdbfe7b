// The events of approval requests and of the issuance requests whose status they decide.
import type { Tx } from "../../db/kysely.ts";
import type { UnitOfWork } from "../../db/unit-of-work.ts";
import { emitEvent } from "../events/emit-event.ts";
import type { EventType } from "../events/event-types.ts";
import { type IssuanceRequestDto, joinedToDto, selectIssuanceRequests } from "../treasury/issuance-request-dto.ts";
import { type ApprovalRow, toApprovalDto } from "./approval-dto.ts";

/** approval_request.<created | approved | rejected | expired> with the approval request as its GET answers it. */
export function emitApprovalEvent(
  uow: UnitOfWork,
  row: ApprovalRow,
  type: EventType & `approval_request.${string}`,
  options: { keepOnError?: boolean } = {},
): void {
  emitEvent(
    uow,
    {
      organizationId: row.organizationId,
      environment: row.environment,
      type,
      resourceId: row.id,
      data: toApprovalDto(row, uow.now),
      // What an approval lets happen runs on a sandbox simulator in the sandbox (every sandbox provider is one), and on
      // a reviewed live provider in production.
      simulated: row.environment === "sandbox",
    },
    options,
  );
}

const ISSUANCE_ENTERED = {
  pending_approval: "issuance_request.created",
  approved: "issuance_request.approved",
  rejected: "issuance_request.rejected",
  expired: "issuance_request.expired",
} as const satisfies Record<IssuanceRequestDto["status"], EventType>;

/** issuance_request.<created | approved | rejected | expired> with the issuance request as its GET answers it. */
export function emitIssuanceEvent(uow: UnitOfWork, dto: IssuanceRequestDto, scope: { organizationId: string; environment: string }): void {
  emitEvent(uow, {
    ...scope,
    type: ISSUANCE_ENTERED[dto.status],
    resourceId: dto.issuanceRequestId,
    data: dto,
    simulated: dto.simulated,
  });
}

/** The issuance requests decided by these approval requests, as their GET answers them (one statement, in `tx` so
 * the decision made in it shows). */
export async function issuanceRequestsOf(
  tx: Tx,
  scope: { organizationId: string; environment: string },
  approvalIds: string[],
  now: Date,
): Promise<IssuanceRequestDto[]> {
  if (approvalIds.length === 0) return [];
  const rows = await selectIssuanceRequests(tx, scope).where("ir.approvalRequestId", "in", approvalIds).execute();
  return rows.map((row) => joinedToDto(row, now)).filter((dto): dto is IssuanceRequestDto => dto !== null);
}
