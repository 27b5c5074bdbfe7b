// Four-eyes approval requests (v2). Thin: read the request, call one domain function, answer. The scope of each
// operation depends on the approval itself, so the domain function checks it (the spec's security lists no role).
import { approveApprovalRequest } from "../domain/approvals/approve-approval-request.ts";
import { getApprovalRequest } from "../domain/approvals/get-approval-request.ts";
import { listApprovalRequests } from "../domain/approvals/list-approval-requests.ts";
import { rejectApprovalRequest } from "../domain/approvals/reject-approval-request.ts";
import { pageWindow } from "../domain/lists/page-window.ts";
import { type Routes, route } from "./route.ts";

export const approvalRoutes: Routes = [
  route("listApprovalRequests", async ({ query, auth, deps }) => ({
    status: 200,
    body: await listApprovalRequests(deps.db.kysely, { auth, window: pageWindow(query), status: query.status }),
  })),
  route("getApprovalRequest", async ({ path, auth, deps }) => ({
    status: 200,
    body: await getApprovalRequest(deps.db.kysely, { auth, approvalRequestId: path.approvalRequestId }),
  })),
  route("approveApprovalRequest", ({ path, body, auth, request, respond }) =>
    respond(async (uow) => ({
      status: 200,
      body: await approveApprovalRequest(uow, {
        auth,
        approvalRequestId: path.approvalRequestId,
        ...decision(body),
        clientAddress: request.clientAddress,
      }),
    })),
  ),
  route("rejectApprovalRequest", ({ path, body, auth, request, respond }) =>
    respond(async (uow) => ({
      status: 200,
      body: await rejectApprovalRequest(uow, {
        auth,
        approvalRequestId: path.approvalRequestId,
        ...decision(body),
        clientAddress: request.clientAddress,
      }),
    })),
  ),
];

function decision(body: { reason?: string; expectedVersion?: number }) {
  return { reason: body.reason, expectedVersion: body.expectedVersion };
}
