// @coinplane/sdk — for now the generated OpenAPI types only; the client (openapi-fetch, retries, idempotency keys,
// typed errors, pagination) and the partner mock (msw) come with the SDK issue.
export type { components, operations, paths } from "./generated/openapi.ts";
