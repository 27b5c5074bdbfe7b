// Issuer treasury: mint and burn requests (four-eyes, nothing sent), their listing, supply status and stress tests.
import type { Request, Response } from "express";
import type { Outcome, ProviderStep, UnitOfWork } from "../db/unit-of-work.ts";
import { getIssuanceRequest } from "../domain/treasury/get-issuance-request.ts";
import { getTreasuryStatus } from "../domain/treasury/get-treasury-status.ts";
import type { IssuanceStatus } from "../domain/treasury/issuance-request-dto.ts";
import { listIssuanceRequests } from "../domain/treasury/list-issuance-requests.ts";
import { type IssuanceInput, requestIssuance } from "../domain/treasury/request-issuance.ts";
import { runTreasuryStressTest } from "../domain/treasury/run-stress-test.ts";
import type { components } from "../generated/openapi.ts";
import { respondWithUnitOfWork } from "../http/respond-with-unit-of-work.ts";
import { authOf, type HandlerDeps, type HandlerTable, intQuery, param } from "./handler.ts";

/** respondWithUnitOfWork, for work whose provider step has a result type (its signature says PendingProviderStep). */
const respond = (req: Request, res: Response, deps: HandlerDeps, work: (uow: UnitOfWork) => Promise<Outcome | ProviderStep<unknown>>) =>
  respondWithUnitOfWork(req, res, deps, work as Parameters<typeof respondWithUnitOfWork>[3]);

async function issuance(req: Request, res: Response, deps: HandlerDeps, input: IssuanceInput): Promise<void> {
  const auth = authOf(req);
  await respond(req, res, deps, (uow) => requestIssuance({ uow, db: deps.db.kysely, auth, input }));
}

export const treasuryHandlers: HandlerTable = {
  async requestMint(req, res, deps) {
    await issuance(req, res, deps, { kind: "mint", request: req.body as components["schemas"]["MintRequest"] });
  },
  async requestBurn(req, res, deps) {
    await issuance(req, res, deps, { kind: "burn", request: req.body as components["schemas"]["BurnRequest"] });
  },
  async listIssuanceRequests(req, res, deps) {
    const query = req.query as { issuerId?: string; kind?: "mint" | "burn"; status?: IssuanceStatus };
    res.json(
      await listIssuanceRequests(deps.db.kysely, authOf(req), {
        issuerId: query.issuerId,
        kind: query.kind,
        status: query.status,
        limit: intQuery(req, "limit", 20),
        offset: intQuery(req, "offset", 0),
      }),
    );
  },
  async getIssuanceRequest(req, res, deps) {
    res.json(await getIssuanceRequest(deps.db.kysely, authOf(req), param(req, "issuanceRequestId")));
  },
  async getTreasuryStatus(req, res, deps) {
    const auth = authOf(req);
    const request = req.body as components["schemas"]["TreasuryStatusRequest"];
    // Read-only: nothing to write but the idempotency record (when a key was sent).
    await respond(req, res, deps, (uow) => getTreasuryStatus({ uow, db: deps.db.kysely, auth, request }));
  },
  async runTreasuryStressTest(req, res, deps) {
    const auth = authOf(req);
    const request = req.body as components["schemas"]["StressTestRequest"];
    await respond(req, res, deps, (uow) => runTreasuryStressTest({ uow, db: deps.db.kysely, auth, request }));
  },
};
