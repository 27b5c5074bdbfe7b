// Issuer treasury: mint and burn requests (four-eyes, nothing sent), their listing, supply status and stress tests.
import { getIssuanceRequest } from "../domain/treasury/get-issuance-request.ts";
import { getTreasuryStatus } from "../domain/treasury/get-treasury-status.ts";
import type { IssuanceStatus } from "../domain/treasury/issuance-request-dto.ts";
import { listIssuanceRequests } from "../domain/treasury/list-issuance-requests.ts";
import { requestIssuance } from "../domain/treasury/request-issuance.ts";
import { runTreasuryStressTest } from "../domain/treasury/run-stress-test.ts";
import type { components } from "../generated/openapi.ts";
import { commitWrite } from "../http/commit-write.ts";
import { authOf, type HandlerTable, intQuery, param } from "./handler.ts";

export const treasuryHandlers: HandlerTable = {
  async requestMint(req, res, deps) {
    const work = await requestIssuance({
      prisma: deps.db.prisma,
      auth: authOf(req),
      input: { kind: "mint", request: req.body as components["schemas"]["MintRequest"] },
    });
    await commitWrite({ prisma: deps.db.prisma, idempotency: deps.idempotency }, req, res, 201, work);
  },
  async requestBurn(req, res, deps) {
    const work = await requestIssuance({
      prisma: deps.db.prisma,
      auth: authOf(req),
      input: { kind: "burn", request: req.body as components["schemas"]["BurnRequest"] },
    });
    await commitWrite({ prisma: deps.db.prisma, idempotency: deps.idempotency }, req, res, 201, work);
  },
  async listIssuanceRequests(req, res, deps) {
    const query = req.query as { issuerId?: string; kind?: "mint" | "burn"; status?: IssuanceStatus };
    res.json(
      await listIssuanceRequests(deps.db.prisma, authOf(req), {
        issuerId: query.issuerId,
        kind: query.kind,
        status: query.status,
        limit: intQuery(req, "limit", 20),
        offset: intQuery(req, "offset", 0),
      }),
    );
  },
  async getIssuanceRequest(req, res, deps) {
    res.json(await getIssuanceRequest(deps.db.prisma, authOf(req), param(req, "issuanceRequestId")));
  },
  async getTreasuryStatus(req, res, deps) {
    const status = await getTreasuryStatus({
      prisma: deps.db.prisma,
      auth: authOf(req),
      request: req.body as components["schemas"]["TreasuryStatusRequest"],
    });
    // Read-only: nothing to write but the idempotency record (when a key was sent).
    await commitWrite({ prisma: deps.db.prisma, idempotency: deps.idempotency }, req, res, 200, async () => status);
  },
  async runTreasuryStressTest(req, res, deps) {
    const result = await runTreasuryStressTest({
      prisma: deps.db.prisma,
      auth: authOf(req),
      request: req.body as components["schemas"]["StressTestRequest"],
    });
    await commitWrite({ prisma: deps.db.prisma, idempotency: deps.idempotency }, req, res, 200, async () => result);
  },
};
