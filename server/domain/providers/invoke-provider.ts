// providers/invoke: resolve → validate → fail closed → screen and evaluate → (four-eyes) → execute → record.
import type { AuthContext } from "../../context.ts";
import type { Db } from "../../db/open-database.ts";
import { ServiceError } from "../../errors/service-error.ts";
import type { components } from "../../generated/openapi.ts";
import type { Tx } from "../../idempotency/idempotency-store.ts";
import { newId } from "../../lib/ids.ts";
import { CATEGORY_SCOPE, type ProviderCategory, ProviderExecutionError } from "../../providers/provider-adapter.ts";
import { resolveProvider } from "../../providers/resolve-provider.ts";
import { validateOperationInput } from "../../providers/validate-input.ts";
import { recordActivity } from "../activity/record-activity.ts";
import { consumeApproval } from "../approvals/consume-approval.ts";
import { createApprovalRequest } from "../approvals/create-approval-request.ts";
import { enforceCompliance } from "../compliance/enforce-compliance.ts";
import { SANDBOX_SCREENING_SOURCE } from "../compliance/sandbox-list.ts";
import type { ComplianceSubject } from "../compliance/types.ts";
import { type InvocationDto, type ScreeningDto, toInvocationDto } from "./invocation-dto.ts";
import { requireAdapter, requireCategoryScope } from "./require-category-scope.ts";

type InvokeRequest = components["schemas"]["InvokeProviderRequest"];

export interface InvokeProviderOptions {
  prisma: Db;
  auth: AuthContext;
  request: InvokeRequest;
  /** Whether the caller sent an Idempotency-Key (write operations need one). */
  idempotent: boolean;
  requestId: string;
}

export interface PreparedInvocation {
  status: 200 | 202;
  /** Runs inside the write transaction: consumes the approval (or creates one), executes, records. */
  commit(tx: Tx): Promise<InvocationDto>;
}

/** The action an approval for this invocation must name; approvals are bound to it and to the exact payload. */
export const invocationAction = (category: string, operation: string) => `providers.invoke:${category}.${operation}`;

export async function invokeProvider(options: InvokeProviderOptions): Promise<PreparedInvocation> {
  const { prisma, auth, request, idempotent, requestId } = options;
  const category = request.category as ProviderCategory;
  requireCategoryScope(auth, category);
  const adapter = requireAdapter(category, request.providerSlug, request.operation);
  const def = adapter.operations[request.operation] as NonNullable<(typeof adapter.operations)[string]>;
  const input = request.input ?? {};
  const inputErrors = validateOperationInput(def, input);
  if (inputErrors.length > 0) {
    throw new ServiceError("INVALID_INPUT", `input does not match the ${request.operation} input schema`, { errors: inputErrors });
  }
  if (request.selectionReceiptId) await checkSelectionReceipt(prisma, auth, request);
  if (request.regime?.travelRule && def.kind === "write" && !(input as { travelRule?: unknown }).travelRule) {
    throw new ServiceError("INVALID_INPUT", "regime.travelRule is true: input.travelRule must carry originator and beneficiary data", {
      errors: [{ path: "/body/input/travelRule", message: "is required under regime.travelRule" }],
    });
  }
  if (def.kind === "write" && !idempotent) {
    throw new ServiceError("IDEMPOTENCY_KEY_REQUIRED", `${request.operation} is a write operation: send an Idempotency-Key`);
  }
  const resolved = await resolveProvider({ prisma, auth, category, providerSlug: request.providerSlug, sandboxFallback: false });

  const subject: ComplianceSubject = {
    operation: "invokeProvider",
    ...(def.screen ? def.screen(input as never) : {}),
    ...(request.regime ? { jurisdictions: { operatorJurisdiction: request.regime.jurisdiction } } : {}),
  };
  const screenable = Boolean(subject.parties?.length || subject.addresses?.length || subject.amount || subject.jurisdictions);
  let screening: ScreeningDto = { decision: "not_required", source: null };
  if (screenable) {
    const result = await enforceCompliance({ prisma, auth, subject, requestId });
    screening = { decision: "clear", source: SANDBOX_SCREENING_SOURCE, decisionIds: [result.screeningDecisionId, result.policyDecisionId] };
  }

  const payload = { providerSlug: request.providerSlug, category, operation: request.operation, input };
  const action = invocationAction(category, request.operation);
  const needsApprovalRequest = def.requiresApproval && !request.approvalRequestId;

  const base = {
    organizationId: auth.organizationId,
    environment: auth.environment,
    providerSlug: request.providerSlug,
    category,
    operation: request.operation,
    input: input as object,
    simulated: resolved.simulated,
    selectionReceiptId: request.selectionReceiptId ?? null,
  };

  if (needsApprovalRequest) {
    return {
      status: 202,
      async commit(tx) {
        const approval = await createApprovalRequest(tx, {
          auth,
          kind: "provider_operation",
          action,
          scope: CATEGORY_SCOPE[category],
          payload,
        });
        const row = await tx.providerInvocation.create({
          data: { id: newId("pinv"), ...base, status: "pending_approval", approvalRequestId: approval.approvalRequestId },
        });
        return toInvocationDto(row, screening);
      },
    };
  }

  return {
    status: 200,
    async commit(tx) {
      // Consuming first (row-locked, versioned) means two invocations cannot both spend one approval; if the provider
      // then fails, the transaction rolls back and the approval stays unused.
      if (request.approvalRequestId) await consumeApproval(tx, { auth, approvalRequestId: request.approvalRequestId, action, payload });
      let output: unknown;
      try {
        output = await def.execute({ config: resolved.config, input, now: new Date() });
      } catch (error) {
        if (error instanceof ProviderExecutionError)
          throw new ServiceError("PROVIDER_EXECUTION_FAILED", `The provider failed: ${error.message}`);
        throw error;
      }
      const row = await tx.providerInvocation.create({
        data: {
          id: newId("pinv"),
          ...base,
          status: "succeeded",
          output: output as object,
          approvalRequestId: request.approvalRequestId ?? null,
        },
      });
      await recordActivity(tx, {
        organizationId: auth.organizationId,
        environment: auth.environment,
        type: "provider.invoked",
        resourceId: row.id,
      });
      return toInvocationDto(row, screening);
    },
  };
}

async function checkSelectionReceipt(prisma: Db, auth: AuthContext, request: InvokeRequest): Promise<void> {
  const receipt = await prisma.selectionReceipt.findFirst({
    where: { id: request.selectionReceiptId, organizationId: auth.organizationId, environment: auth.environment },
  });
  if (!receipt) throw new ServiceError("NOT_FOUND", "Selection receipt not found");
  const mismatch =
    receipt.category !== request.category ||
    receipt.providerSlug !== request.providerSlug ||
    (receipt.operation !== null && receipt.operation !== request.operation);
  if (mismatch) throw new ServiceError("INVALID_INPUT", "The selection receipt names another provider, category or operation");
  if (receipt.expiresAt <= new Date()) throw new ServiceError("INVALID_INPUT", "The selection receipt has expired");
}
