import type { AuthContext } from "../../context.ts";
import type { UnitOfWork } from "../../db/unit-of-work/index.ts";
import { newId } from "../../lib/ids.ts";
import { recordActivity } from "../activity/record-activity.ts";
import { APPROVAL_KINDS, APPROVAL_TTL_HOURS, type ApprovalDto, type ApprovalKind, toApprovalDto } from "./approval-dto.ts";
import { emitApprovalEvent } from "./approval-events.ts";
import { canonicalApprovalPayload } from "./approval-payload.ts";

export type { ApprovalKind } from "./approval-dto.ts";

export interface CreateApprovalRequestOptions {
  /** The requester: the key whose call needs approval. A different actor of the organization must decide. */
  auth: AuthContext;
  kind: ApprovalKind;
  /** The exact operation authorised, e.g. "providers.invoke:custody.create_wallet". */
  action: string;
  /** Scope needed to decide it, e.g. "wallets:write"; reading needs the read scope of the same resource. */
  scope: string;
  /** What the guarded operation will execute; bound by SHA-256 of its canonical JSON. */
  payload: unknown;
  resourceId?: string;
  /** Time to live (decision and use); default APPROVAL_TTL_HOURS. */
  ttlHours?: number;
}

const SCOPE = /^[a-z]+:(read|write)$/;

/** Creates a `pending` approval request in the caller's unit of work (so it exists exactly when the guarded write does). */
export async function createApprovalRequest(uow: UnitOfWork, options: CreateApprovalRequestOptions): Promise<ApprovalDto> {
  const { auth, kind, action, scope, payload, resourceId } = options;
  const ttlHours = options.ttlHours ?? APPROVAL_TTL_HOURS;
  // Programming errors of the calling code, not client errors.
  if (!APPROVAL_KINDS.includes(kind)) throw new TypeError(`Unknown approval kind ${kind}`);
  if (action.length < 1 || action.length > 200) throw new TypeError("Approval action must be 1–200 characters");
  if (!SCOPE.test(scope)) throw new TypeError(`Approval scope ${scope} is not <resource>:<read|write>`);
  if (!Number.isFinite(ttlHours) || ttlHours <= 0) throw new RangeError("Approval ttlHours must be a positive number");
  const { json, hash } = canonicalApprovalPayload(payload);
  const now = uow.now;
  const row = await uow.tx
    .insertInto("ApprovalRequest")
    .values({
      id: newId("apr"),
      organizationId: auth.organizationId,
      environment: auth.environment,
      kind,
      action,
      scope,
      payload: JSON.stringify(json),
      payloadHash: hash,
      status: "pending",
      requestedByActor: auth.actor,
      requestedByKeyId: auth.apiKeyId,
      requestedByMemberId: auth.memberId ?? null,
      expiresAt: new Date(now.getTime() + Math.round(ttlHours * 3_600_000)),
      resourceId: resourceId ?? null,
      createdAt: now,
      updatedAt: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  recordActivity(uow, {
    organizationId: auth.organizationId,
    environment: auth.environment,
    type: "approval.requested",
    resourceId: row.id,
  });
  emitApprovalEvent(uow, row, "approval_request.created");
  return toApprovalDto(row, now);
}
