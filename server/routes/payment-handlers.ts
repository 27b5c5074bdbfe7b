// v2 payments: bank transfers (Sandbox only: simulated), corridor rehearsal and its scheduled workflow runs.

import type { Request, Response } from "express";
import { cancelBankTransfer } from "../domain/bank-transfers/cancel-bank-transfer.ts";
import { createBankTransfer } from "../domain/bank-transfers/create-bank-transfer.ts";
import { getBankTransferStatus } from "../domain/bank-transfers/get-bank-transfer-status.ts";
import type { PreparedWrite } from "../domain/bank-transfers/prepared-write.ts";
import { withStorageErrors } from "../domain/bank-transfers/storage-errors.ts";
import { getWorkflowRun } from "../domain/corridors/get-workflow-run.ts";
import { simulateCorridor } from "../domain/corridors/simulate-corridor.ts";
import type { components } from "../generated/openapi.ts";
import { commitWrite } from "../http/commit-write.ts";
import { dispatchDueRuns } from "../scheduler/dispatch-due-runs.ts";
import { authOf, type HandlerDeps, type HandlerTable, param } from "./handler.ts";

type Lookup = components["schemas"]["BankTransferLookupRequest"];

/** Commits a prepared write; a failure of our own database becomes 503 STORAGE_UNAVAILABLE with nothing written. */
function commitPrepared<T>(req: Request, res: Response, deps: HandlerDeps, prepare: () => Promise<PreparedWrite<T>>) {
  return withStorageErrors("STORAGE_UNAVAILABLE", "The payment could not be recorded; nothing was sent to the provider", async () => {
    const prepared = await prepare();
    await commitWrite({ prisma: deps.db.prisma, idempotency: deps.idempotency }, req, res, prepared.status, prepared.commit);
  });
}

export const paymentHandlers: HandlerTable = {
  async createBankTransfer(req, res, deps) {
    await commitPrepared(req, res, deps, () =>
      createBankTransfer({
        prisma: deps.db.prisma,
        auth: authOf(req),
        request: req.body as components["schemas"]["CreateBankTransferRequest"],
        requestId: req.ctx.requestId,
      }),
    );
  },
  async getBankTransferStatus(req, res, deps) {
    const prepared = await getBankTransferStatus({ prisma: deps.db.prisma, auth: authOf(req), request: req.body as Lookup });
    await commitWrite({ prisma: deps.db.prisma, idempotency: deps.idempotency }, req, res, prepared.status, prepared.commit);
  },
  async cancelBankTransfer(req, res, deps) {
    await commitPrepared(req, res, deps, () =>
      cancelBankTransfer({ prisma: deps.db.prisma, auth: authOf(req), request: req.body as Lookup }),
    );
  },
  async simulateCorridor(req, res, deps) {
    await commitPrepared(req, res, deps, async () => {
      const prepared = await simulateCorridor({
        prisma: deps.db.prisma,
        auth: authOf(req),
        request: req.body as components["schemas"]["SimulateCorridorRequest"],
        requestId: req.ctx.requestId,
      });
      res.setHeader("Location", `/api/v2/agent/payments/corridor/workflows/${prepared.workflowRunId}`);
      return prepared;
    });
  },
  async getCorridorWorkflowRun(req, res, deps) {
    res.json(
      await getWorkflowRun({
        prisma: deps.db.prisma,
        auth: authOf(req),
        workflowRunId: param(req, "workflowRunId"),
        hasQuery: Object.keys(req.query as object).length > 0,
        hasBody: req.body !== undefined && !(typeof req.body === "object" && Object.keys(req.body as object).length === 0),
      }),
    );
  },
  async dispatchCorridorWorkflows(req, res, deps) {
    res.json(await dispatchDueRuns({ prisma: deps.db.prisma, logger: req.ctx.log }));
  },
};
