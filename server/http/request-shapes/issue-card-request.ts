// POST cards/issue's `oneOf` body, tagged at the edge (see tag-one-of.ts). A route handler passes the validated body:
//   issueCard({ uow, auth, request: issueCardRequest(body), requestId })
import type { IssueCardRequest } from "../../domain/cards/issue-card-request.ts";
import type { components } from "../../generated/openapi.ts";
import { tagOneOf } from "./tag-one-of.ts";

type Schemas = components["schemas"];

export const issueCardRequest = (body: Schemas["IssueCardRequest"]): IssueCardRequest =>
  tagOneOf<{ "existing-cardholder": Schemas["IssueCardForCardholder"]; "new-cardholder": Schemas["IssueCardForNewCardholder"] }>(body, {
    "existing-cardholder": ["programmeId", "cardholderId"],
    "new-cardholder": ["programmeId", "cardholder"],
  });
