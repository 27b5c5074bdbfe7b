// POST cards/issue's `oneOf` body, tagged at the edge. A route handler passes the validated body:
//   issueCard(uow, { auth, request: issueCardRequest(body), requestId })
// The third branch (no cardholder) requires only what the other two require as well, so tagOneOf's "required members
// tell the branches apart" does not hold: the branch is told by which cardholder member, if any, is present (each
// branch refuses the members it does not list, so the validator let through at most one of them).
import type { IssueCardRequest } from "../../domain/cards/issue-card-request.ts";
import { validationError } from "../../errors/service-error.ts";
import type { components } from "../../generated/openapi.ts";

type Schemas = components["schemas"];

export function issueCardRequest(body: Schemas["IssueCardRequest"]): IssueCardRequest {
  const existing = Object.hasOwn(body, "cardholderId");
  const created = Object.hasOwn(body, "cardholder");
  if (existing && created) throw validationError("/body", "must match exactly one schema in oneOf");
  if (existing) return { ...(body as Schemas["IssueCardForCardholder"]), kind: "existing-cardholder" };
  if (created) return { ...(body as Schemas["IssueCardForNewCardholder"]), kind: "new-cardholder" };
  return { ...(body as Schemas["IssueCardWithoutCardholder"]), kind: "no-cardholder" };
}
