// The events of issuance requests: one per status entered, with the request as its GET answers it. Its status is
// decided by its approval request, so the approval's decision and expiry emit these too.
import type { Tx } from "../../db/kysely.ts";
import type { UnitOfWork } from "../../db/unit-of-work/index.ts";
import { emitEvent } from "../events/emit-event.ts";
import type { EventType } from "../events/event-types.ts";
import { type IssuanceRequestDto, joinedToDto, selectIssuanceRequests } from "./issuance-request-dto.ts";

/** The event of each status an issuance request enters (check:invariants counts them: server/domain/reconcile/). */
export const ISSUANCE_EVENT_OF = {
  pending_approval: "issuance_request.created",
  approved: "issuance_request.approved",
  rejected: "issuance_request.rejected",
  expired: "issuance_request.expired",
} as const satisfies Record<IssuanceRequestDto["status"], EventType>;

/** issuance_request.<created | approved | rejected | expired> with the issuance request as its GET answers it. */
export function emitIssuanceEvent(uow: UnitOfWork, dto: IssuanceRequestDto, scope: { organizationId: string; environment: string }): void {
  emitEvent(uow, {
    ...scope,
    type: ISSUANCE_EVENT_OF[dto.status],
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
