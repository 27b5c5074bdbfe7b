// Agent API (v2): compliance screening and policy evaluation. Both record decisions, so they run through commitWrite:
// with an Idempotency-Key the decisions and the stored response commit together.
import { evaluatePolicy } from "../domain/compliance/evaluate-policy.ts";
import { screenCompliance } from "../domain/compliance/screen-compliance.ts";
import type { components } from "../generated/openapi.ts";
import { commitWrite } from "../http/commit-write.ts";
import { authOf, type HandlerTable } from "./handler.ts";

type ComplianceCheckRequest = components["schemas"]["ComplianceCheckRequest"];

export const complianceHandlers: HandlerTable = {
  async screenCompliance(req, res, deps) {
    const auth = authOf(req);
    const body = req.body as ComplianceCheckRequest;
    await commitWrite({ prisma: deps.db.prisma, idempotency: deps.idempotency }, req, res, 200, (tx) =>
      screenCompliance({ tx, auth, body, requestId: req.ctx.requestId }),
    );
  },
  async evaluatePolicy(req, res, deps) {
    const auth = authOf(req);
    const body = req.body as ComplianceCheckRequest;
    await commitWrite({ prisma: deps.db.prisma, idempotency: deps.idempotency }, req, res, 200, (tx) =>
      evaluatePolicy({ tx, auth, body, requestId: req.ctx.requestId }),
    );
  },
};
