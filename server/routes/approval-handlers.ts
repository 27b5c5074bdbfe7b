// Four-eyes approval requests (v2). Thin: read the request, call one domain function, respond. The scope of each
// operation depends on the approval itself, so the domain function checks it (the spec's security lists no role).
import { approveApprovalRequest } from "../domain/approvals/approve-approval-request.ts";
import { getApprovalRequest } from "../domain/approvals/get-approval-request.ts";
import { rejectApprovalRequest } from "../domain/approvals/reject-approval-request.ts";
import type { components } from "../generated/openapi.ts";
import { respondWithUnitOfWork } from "../http/respond-with-unit-of-work.ts";
import { authOf, type HandlerTable, param } from "./handler.ts";

type DecisionBody = components["schemas"]["ApprovalDecisionRequest"];

export const approvalHandlers: HandlerTable = {
  async getApprovalRequest(req, res, deps) {
    res.json(await getApprovalRequest(deps.db.kysely, { auth: authOf(req), approvalRequestId: param(req, "approvalRequestId") }));
  },
  async approveApprovalRequest(req, res, deps) {
    const body = req.body as DecisionBody;
    const auth = authOf(req);
    await respondWithUnitOfWork(req, res, deps, async (uow) => ({
      status: 200,
      body: await approveApprovalRequest(uow, {
        auth,
        approvalRequestId: param(req, "approvalRequestId"),
        reason: body.reason,
        expectedVersion: body.expectedVersion,
      }),
    }));
  },
  async rejectApprovalRequest(req, res, deps) {
    const body = req.body as DecisionBody;
    const auth = authOf(req);
    await respondWithUnitOfWork(req, res, deps, async (uow) => ({
      status: 200,
      body: await rejectApprovalRequest(uow, {
        auth,
        approvalRequestId: param(req, "approvalRequestId"),
        reason: body.reason,
        expectedVersion: body.expectedVersion,
      }),
    }));
  },
};
