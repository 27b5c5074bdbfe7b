// providers/invoke: resolve → validate → fail closed → screen and evaluate → (four-eyes) → execute → record.
import type { AuthContext } from "../../context.ts";
import { afterProviderCall, type ProviderStep, type UnitOfWork } from "../../db/unit-of-work/index.ts";
import { ServiceError } from "../../errors/service-error.ts";
import type { components } from "../../generated/openapi.ts";
import { SANDBOX_SCREENING_SOURCE } from "../../lib/compliance/sandbox-screening-list.ts";
import { newId } from "../../lib/ids.ts";
import { CATEGORY_SCOPE, type ProviderCategory } from "../../providers/provider-adapter.ts";
import { validateOperationInput } from "../../providers/validate-input.ts";
import type { OperationOutcome } from "../../spec/operation-types.ts";
import { recordActivity } from "../activity/record-activity.ts";
import type { ApprovalDto } from "../approvals/approval-dto.ts";
import { consumeApproval, releaseApproval } from "../approvals/consume-approval.ts";
import { createApprovalRequest } from "../approvals/create-approval-request.ts";
import { enforceCompliance } from "../compliance/enforce-compliance.ts";
import type { ComplianceSubject } from "../compliance/types.ts";
import { type ScreeningDto, toInvocationDto } from "./invocation-dto.ts";
import { callProvider } from "./provider-call.ts";
import { requireAdapter, requireCategoryScope } from "./require-category-scope.ts";
import { resolveProvider } from "./resolve-provider.ts";
import { checkSelectionReceipt } from "./selection-receipt.ts";

type InvokeRequest = components["schemas"]["InvokeProviderRequest"];

export interface InvokeProviderOptions {
  auth: AuthContext;
  request: InvokeRequest;
  /** Whether the caller sent an Idempotency-Key (write operations need one). */
  idempotent: boolean;
  requestId: string;
}

/** providers/invoke answers only codes of its own list in the description (no 424): a reviewed connection that is
 * missing — the named provider's (production, custody, a live provider) or, in production, compliance screening's —
 * means the provider is not available to the organization here, 404 NOT_FOUND. */
async function withinInvokeCodes<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ServiceError && error.code === "PROVIDER_NOT_CONNECTED") throw new ServiceError("NOT_FOUND", error.message);
    throw error;
  }
}

/** Status of the invocation row between the two transactions (the provider call is in flight); never answered. */
const IN_PROGRESS = "in_progress";

/** The action an approval for this invocation must name; approvals are bound to it and to the exact payload. */
export const invocationAction = (category: string, operation: string) => `providers.invoke:${category}.${operation}`;

/**
 * Runs in the request's unit of work. Without an approval yet (a four-eyes operation), one transaction records the
 * approval request and the `pending_approval` invocation (202). Otherwise the operation calls the provider, so it
 * needs two transactions (a transaction is never held open across a provider call): the first consumes the approval
 * (if any) and records the invocation as the intent; the provider is called with the invocation id as its
 * idempotency key; the second records the output (200), or, when the provider failed, deletes the intent and releases
 * the approval, so nothing stays recorded and the approval can be used again.
 */
type InvokeOutcome = OperationOutcome<"invokeProvider">;

export async function invokeProvider(
  uow: UnitOfWork,
  options: InvokeProviderOptions,
): Promise<InvokeOutcome | ProviderStep<unknown, InvokeOutcome>> {
  const { auth, request, idempotent, requestId } = options;
  const category = request.category as ProviderCategory;
  requireCategoryScope(auth, category);
  const adapter = requireAdapter(category, request.providerSlug, request.operation);
  const def = adapter.operations[request.operation] as NonNullable<(typeof adapter.operations)[string]>;
  const input = request.input ?? {};
  const inputErrors = validateOperationInput(def, input);
  if (inputErrors.length > 0) {
    throw new ServiceError("INVALID_INPUT", `input does not match the ${request.operation} input schema`, { errors: inputErrors });
  }
  if (request.selectionReceiptId) {
    const { selectionReceiptId, providerSlug, operation } = request;
    await checkSelectionReceipt(uow, auth, { selectionReceiptId, category: request.category, providerSlug, operation });
  }
  if (request.regime?.travelRule && def.kind === "write" && !(input as { travelRule?: unknown }).travelRule) {
    throw new ServiceError("INVALID_INPUT", "regime.travelRule is true: input.travelRule must carry originator and beneficiary data", {
      errors: [{ path: "/body/input/travelRule", message: "is required under regime.travelRule" }],
    });
  }
  if (def.kind === "write" && !idempotent) {
    throw new ServiceError("IDEMPOTENCY_KEY_REQUIRED", `${request.operation} is a write operation: send an Idempotency-Key`, {
      errors: [{ path: "/headers/idempotency-key", message: "is required for a write operation" }],
    });
  }
  // Rule 2 of the description: in the sandbox, until a live provider is connected, the category's simulator serves
  // (never custody's: custody fails closed; resolveProvider knows).
  const resolved = await withinInvokeCodes(() =>
    resolveProvider({ db: uow.tx, auth, category, providerSlug: request.providerSlug, sandboxFallback: true }),
  );

  const subject: ComplianceSubject = {
    operation: "invokeProvider",
    ...(def.screen ? def.screen(input as never) : {}),
    ...(request.regime ? { jurisdictions: { operatorJurisdiction: request.regime.jurisdiction } } : {}),
  };
  const screenable = Boolean(subject.parties?.length || subject.addresses?.length || subject.amount || subject.jurisdictions);
  let screening: ScreeningDto = { decision: "not_required", source: null };
  if (screenable) {
    const result = await withinInvokeCodes(() => enforceCompliance({ uow, auth, subject, requestId }));
    screening = { decision: "clear", source: SANDBOX_SCREENING_SOURCE, decisionIds: [result.screeningDecisionId, result.policyDecisionId] };
  }

  const payload = { providerSlug: request.providerSlug, category, operation: request.operation, input };
  const action = invocationAction(category, request.operation);
  const base = {
    id: newId("pinv"),
    organizationId: auth.organizationId,
    environment: auth.environment,
    providerSlug: request.providerSlug,
    category,
    operation: request.operation,
    input: JSON.stringify(input),
    simulated: resolved.simulated,
    selectionReceiptId: request.selectionReceiptId ?? null,
    createdAt: uow.now,
  };

  if (def.requiresApproval && !request.approvalRequestId) {
    const approval = await createApprovalRequest(uow, {
      auth,
      kind: "provider_operation",
      action,
      scope: CATEGORY_SCOPE[category],
      payload,
    });
    const row = await uow.tx
      .insertInto("ProviderInvocation")
      .values({ ...base, status: "pending_approval", approvalRequestId: approval.approvalRequestId })
      .returningAll()
      .executeTakeFirstOrThrow();
    return { status: 202, body: toInvocationDto(row, screening) };
  }

  // Consuming first (compare-and-set on the version) means two invocations cannot both spend one approval.
  let consumed: ApprovalDto | undefined;
  if (request.approvalRequestId) {
    consumed = await consumeApproval(uow, { auth, approvalRequestId: request.approvalRequestId, action, payload });
  }
  await uow.tx
    .insertInto("ProviderInvocation")
    .values({ ...base, status: IN_PROGRESS, approvalRequestId: request.approvalRequestId ?? null })
    .execute();

  return afterProviderCall({
    call: () =>
      callProvider({ provider: "invoked" }, () =>
        def.execute({ config: resolved.config, input, now: new Date(), idempotencyKey: base.id }),
      ),
    async onResult(uow2, output) {
      const row = await uow2.tx
        .updateTable("ProviderInvocation")
        .set({ status: "succeeded", output: output === undefined ? null : JSON.stringify(output) })
        .where("id", "=", base.id)
        .where("status", "=", IN_PROGRESS)
        .returningAll()
        .executeTakeFirstOrThrow();
      recordActivity(uow2, {
        organizationId: auth.organizationId,
        environment: auth.environment,
        type: "provider.invoked",
        resourceId: row.id,
      });
      return { status: 200, body: toInvocationDto(row, screening) };
    },
    async onFailure(uow2) {
      // As if the invocation never ran: no invocation row, and the approval usable again.
      await uow2.tx.deleteFrom("ProviderInvocation").where("id", "=", base.id).where("status", "=", IN_PROGRESS).execute();
      if (consumed) await releaseApproval(uow2, consumed);
    },
  });
}
