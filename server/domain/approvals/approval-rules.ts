// The four-eyes and single-use rules of approval requests (documented on `ApprovalStatus`), apart from the reads and
// compare-and-set writes that apply them, so they can be checked without a database. Each returns the error the
// request answers, or null when the rule lets it through.

import type { AuthContext } from "../../context.ts";
import { ServiceError } from "../../errors/service-error.ts";
import { hasScope } from "../access/api-keys.ts";
import { approvalStatusOf } from "./approval-dto.ts";
import { canonicalApprovalPayload } from "./approval-payload.ts";

type Caller = Pick<AuthContext, "scopes" | "actor" | "memberId" | "session">;

interface StoredApproval {
  id: string;
  scope: string;
  status: string;
  expiresAt: Date;
  consumedAt: Date | null;
  requestedByActor: string;
  requestedByMemberId?: string | null;
  action: string;
  payloadHash: string;
  version: number;
}

/** Who may decide at all, before the request is read (403 each): a member's session, never an API key; the approver or
 * owner role; a second factor verified in this session. */
export function deciderRefusal(caller: Caller, decision: "approved" | "rejected"): ServiceError | null {
  const verb = decision === "approved" ? "approve" : "reject";
  const session = caller.session;
  if (!session) {
    return new ServiceError(
      "SESSION_REQUIRED",
      `Only a member signed in with a session can ${verb} an approval request; an API key cannot`,
    );
  }
  if (session.role !== "approver" && session.role !== "owner") {
    return new ServiceError("FORBIDDEN", `The ${session.role} role cannot ${verb} approval requests; an approver or owner must`);
  }
  if (!session.secondFactorVerified) {
    return new ServiceError("SECOND_FACTOR_REQUIRED", `Verify your second factor in this session before you ${verb} an approval request`);
  }
  return null;
}

/** Approve or reject: a member other than the requester (403 OWN_APPROVAL_REQUEST), another actor than the requester
 * (403), still `pending` and not expired (409), `expectedVersion` when given (409). A member's role stands for the
 * approval's scope (deciderRefusal); an API key (never a decider since issue 24) would need the scope. */
export function decisionRefusal(
  row: StoredApproval,
  caller: Caller,
  decision: "approved" | "rejected",
  now: Date,
  expectedVersion?: number,
): ServiceError | null {
  const verb = decision === "approved" ? "approve" : "reject";
  if (caller.session && row.requestedByMemberId != null && row.requestedByMemberId === caller.memberId) {
    return new ServiceError(
      "OWN_APPROVAL_REQUEST",
      `You requested this approval (through an API key you created); another member must ${verb} it`,
    );
  }
  if (!caller.session && !hasScope(caller.scopes, row.scope)) {
    return new ServiceError("FORBIDDEN", `This API key lacks the scope ${row.scope} required to ${verb} this approval request`);
  }
  if (row.requestedByActor === caller.actor) {
    return new ServiceError(
      "FORBIDDEN",
      `Four-eyes rule: the requester (actor ${caller.actor}) cannot ${verb} their own approval request; another actor of the organization must`,
    );
  }
  const status = approvalStatusOf(row, now);
  if (status !== "pending") {
    return new ServiceError("STATE_CONFLICT", `The approval request is ${status}; only a pending approval request can be decided`);
  }
  if (expectedVersion !== undefined && expectedVersion !== row.version) {
    return new ServiceError("STATE_CONFLICT", `expectedVersion ${expectedVersion} does not match the current version ${row.version}`);
  }
  return null;
}

const forbidden = (message: string) => new ServiceError("FORBIDDEN", message);

/** 403 for an approval still awaiting its decision: shared by the use check and the custody shapes that check first. */
export const approvalStillPending = (approvalRequestId: string) =>
  forbidden(`Approval request ${approvalRequestId} is still pending; another actor must approve it first`);

/** Use by the guarded operation (403 each): the approval's scope, not used before, approved and not expired, for
 * exactly this action and this payload (by the SHA-256 of its canonical JSON). */
export function useRefusal(row: StoredApproval, caller: Caller, action: string, payload: unknown, now: Date): ServiceError | null {
  if (!hasScope(caller.scopes, row.scope)) {
    return forbidden(`This API key lacks the scope ${row.scope} required to use approval request ${row.id}`);
  }
  if (row.consumedAt !== null) return forbidden(`Approval request ${row.id} was already used; an approval is single-use`);
  const status = approvalStatusOf(row, now);
  if (status === "pending") return approvalStillPending(row.id);
  if (status === "rejected") return forbidden(`Approval request ${row.id} was rejected`);
  if (status === "expired") return forbidden(`Approval request ${row.id} expired at ${row.expiresAt.toISOString()}`);
  if (row.action !== action) return forbidden(`Approval request ${row.id} was approved for another operation (${row.action})`);
  if (canonicalApprovalPayload(payload).hash !== row.payloadHash) {
    return forbidden(`Approval request ${row.id} was approved for another payload; the request must match the approved one exactly`);
  }
  return null;
}
