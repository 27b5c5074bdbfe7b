// Agent API (v2): compliance screening and policy evaluation. Both record decisions, so they run in the request's unit
// of work: with an Idempotency-Key the decisions and the stored response commit together.
import { evaluatePolicy } from "../domain/compliance/evaluate-policy.ts";
import { screenCompliance } from "../domain/compliance/screen-compliance.ts";
import type { components } from "../generated/openapi.ts";
import { respondWithUnitOfWork } from "../http/respond-with-unit-of-work.ts";
import { authOf, type HandlerTable } from "./handler.ts";

type ComplianceCheckRequest = components["schemas"]["ComplianceCheckRequest"];

export const complianceHandlers: HandlerTable = {
  async screenCompliance(req, res, deps) {
    const auth = authOf(req);
    const body = req.body as ComplianceCheckRequest;
    await respondWithUnitOfWork(req, res, deps, async (uow) => ({
      status: 200,
      body: await screenCompliance({ uow, auth, body, requestId: req.ctx.requestId }),
    }));
  },
  async evaluatePolicy(req, res, deps) {
    const auth = authOf(req);
    const body = req.body as ComplianceCheckRequest;
    await respondWithUnitOfWork(req, res, deps, async (uow) => ({
      status: 200,
      body: await evaluatePolicy({ uow, auth, body, requestId: req.ctx.requestId }),
    }));
  },
};
