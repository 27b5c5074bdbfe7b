// The events of approval requests (the issuance requests whose status they decide emit theirs in
// server/domain/treasury/issuance-request-events.ts).
import type { UnitOfWork } from "../../db/unit-of-work/index.ts";
import { emitEvent } from "../events/emit-event.ts";
import type { EventType } from "../events/event-types.ts";
import { type ApprovalRow, toApprovalDto } from "./approval-dto.ts";

/** approval_request.<created | approved | rejected | expired> with the approval request as its GET answers it. */
export function emitApprovalEvent(
  uow: UnitOfWork,
  row: ApprovalRow,
  type: EventType & `approval_request.${string}`,
  options: { keepOnError?: boolean } = {},
): void {
  emitEvent(uow, {
    organizationId: row.organizationId,
    environment: row.environment,
    type,
    resourceId: row.id,
    data: toApprovalDto(row, uow.now),
    // What an approval lets happen runs on a sandbox simulator in the sandbox (every sandbox provider is one), and on
    // a reviewed live provider in production.
    simulated: row.environment === "sandbox",
    keepOnError: options.keepOnError,
  });
}
