// Issuer treasury: mint and burn requests (four-eyes, nothing sent), their listing, supply status and stress tests.
import { sandboxChainLogOf } from "../db/sandbox-chain-log-store.ts";
import { pageWindow } from "../domain/lists/page-window.ts";
import { getIssuanceRequest } from "../domain/treasury/get-issuance-request.ts";
import { getTreasuryStatus } from "../domain/treasury/get-treasury-status.ts";
import { ISSUANCE_PAGE_SIZE, listIssuanceRequests } from "../domain/treasury/list-issuance-requests.ts";
import { requestIssuance } from "../domain/treasury/request-issuance.ts";
import { runTreasuryStressTest } from "../domain/treasury/run-stress-test.ts";
import { type Routes, route } from "./route.ts";

export const treasuryRoutes: Routes = [
  route("requestMint", ({ body, auth, deps, respond, idempotencyScope }) =>
    respond((uow) =>
      requestIssuance(uow, {
        chainLog: sandboxChainLogOf(deps.db.kysely),
        auth,
        input: { kind: "mint", request: body },
        idempotencyKey: idempotencyScope,
      }),
    ),
  ),
  route("requestBurn", ({ body, auth, deps, respond, idempotencyScope }) =>
    respond((uow) =>
      requestIssuance(uow, {
        chainLog: sandboxChainLogOf(deps.db.kysely),
        auth,
        input: { kind: "burn", request: body },
        idempotencyKey: idempotencyScope,
      }),
    ),
  ),
  route("listIssuanceRequests", async ({ query, auth, deps }) => ({
    status: 200,
    body: await listIssuanceRequests(deps.db.kysely, {
      auth,
      window: pageWindow(query, ISSUANCE_PAGE_SIZE),
      issuerId: query.issuerId,
      kind: query.kind,
      status: query.status,
      offset: query.offset ?? 0,
    }),
  })),
  route("getIssuanceRequest", async ({ path, auth, deps }) => ({
    status: 200,
    body: await getIssuanceRequest(deps.db.kysely, { auth, issuanceRequestId: path.issuanceRequestId }),
  })),
  // Read-only: nothing to write but the idempotency record (when a key was sent).
  route("getTreasuryStatus", ({ body, auth, respond }) => respond((uow) => getTreasuryStatus(uow, { auth, request: body }))),
  route("runTreasuryStressTest", ({ body, auth, respond }) => respond((uow) => runTreasuryStressTest(uow, { auth, request: body }))),
];
