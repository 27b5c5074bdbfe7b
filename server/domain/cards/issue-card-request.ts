// POST cards/issue as the domain takes it: to an existing cardholder, to a new one, or to none. The HTTP edge decides
// the tag once, from the `oneOf` branch the body matched (server/http/request-shapes/issue-card-request.ts).
import type { components } from "../../generated/openapi.ts";

type Schemas = components["schemas"];

export type IssueCardRequest =
  | ({ kind: "existing-cardholder" } & Schemas["IssueCardForCardholder"])
  | ({ kind: "new-cardholder" } & Schemas["IssueCardForNewCardholder"])
  | ({ kind: "no-cardholder" } & Schemas["IssueCardWithoutCardholder"]);
