// Agent API (v2): compliance screening and policy evaluation. Both record decisions, so they run in the request's unit
// of work: with an Idempotency-Key the decisions and the stored response commit together.
import { evaluatePolicy } from "../domain/compliance/evaluate-policy.ts";
import { screenCompliance } from "../domain/compliance/screen-compliance.ts";
import { type Routes, route } from "./route.ts";

export const complianceRoutes: Routes = [
  route("screenCompliance", ({ body, auth, requestId, respond }) =>
    respond(async (uow) => ({ status: 200, body: await screenCompliance(uow, { auth, body, requestId }) })),
  ),
  route("evaluatePolicy", ({ body, auth, requestId, respond }) =>
    respond(async (uow) => ({ status: 200, body: await evaluatePolicy(uow, { auth, body, requestId }) })),
  ),
];
