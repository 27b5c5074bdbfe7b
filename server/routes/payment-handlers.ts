// v2 payments: bank transfers (Sandbox only: simulated), corridor rehearsal and its scheduled workflow runs.

import type { Request, Response } from "express";
import type { Outcome, PendingProviderStep, UnitOfWork } from "../db/unit-of-work.ts";
import { cancelBankTransfer } from "../domain/bank-transfers/cancel-bank-transfer.ts";
import { createBankTransfer } from "../domain/bank-transfers/create-bank-transfer.ts";
import { getBankTransferStatus, StaleBankTransferRefresh } from "../domain/bank-transfers/get-bank-transfer-status.ts";
import { getWorkflowRun } from "../domain/corridors/get-workflow-run.ts";
import { simulateCorridor } from "../domain/corridors/simulate-corridor.ts";
import { isDatabaseUnavailable } from "../errors/database-errors.ts";
import { ServiceError } from "../errors/service-error.ts";
import type { components } from "../generated/openapi.ts";
import { respondWithUnitOfWork } from "../http/respond-with-unit-of-work.ts";
import { ProviderExecutionError } from "../providers/provider-adapter.ts";
import { dispatchDueRuns } from "../scheduler/dispatch-due-runs.ts";
import { authOf, type HandlerDeps, type HandlerTable, param } from "./handler.ts";

type Lookup = components["schemas"]["BankTransferLookupRequest"];
type Work = (uow: UnitOfWork) => Promise<Outcome | PendingProviderStep>;
const respond = respondWithUnitOfWork;

/** How often a status lookup without an Idempotency-Key starts over when a concurrent lookup recorded news first. */
const STALE_REFRESH_ATTEMPTS = 5;

/** An error the database driver raised (a failed statement carries a SQLSTATE and a severity), or an unreachable one. */
function isDatabaseError(error: unknown): boolean {
  if (isDatabaseUnavailable(error)) return true;
  for (let e: unknown = error, depth = 0; e && typeof e === "object" && depth < 6; depth++) {
    const { code, severity } = e as { code?: unknown; severity?: unknown };
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code) && typeof severity === "string") return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

const storageUnavailable = (error: unknown) =>
  error instanceof ServiceError || error instanceof ProviderExecutionError || !isDatabaseError(error)
    ? error
    : new ServiceError("STORAGE_UNAVAILABLE", "The payment could not be recorded; nothing was sent to the provider", {
        retryAfterSeconds: 5,
        cause: error,
      });

/**
 * Answers a payments write whose database failure is documented as 503 STORAGE_UNAVAILABLE (Retry-After, nothing
 * written). Mapped inside the work, so the unit of work treats it as transient and frees the key, and around it, for a
 * failure of the statement that writes the deferred rows at commit.
 */
async function respondOr503(req: Request, res: Response, deps: HandlerDeps, work: Work): Promise<void> {
  try {
    await respond(req, res, deps, async (uow) => {
      try {
        return await work(uow);
      } catch (error) {
        throw storageUnavailable(error);
      }
    });
  } catch (error) {
    throw storageUnavailable(error);
  }
}

export const paymentHandlers: HandlerTable = {
  async createBankTransfer(req, res, deps) {
    const auth = authOf(req);
    const request = req.body as components["schemas"]["CreateBankTransferRequest"];
    await respondOr503(req, res, deps, (uow) => createBankTransfer({ uow, auth, request, requestId: req.ctx.requestId }));
  },
  async getBankTransferStatus(req, res, deps) {
    const auth = authOf(req);
    const request = req.body as Lookup;
    // Without an Idempotency-Key there is no stored answer to keep: a lookup overtaken by a concurrent one starts over,
    // so every lookup advances the transfer by what the provider reports for its current state.
    const restartable = req.ctx.idempotency === undefined;
    for (let attempt = 1; ; attempt++) {
      const restartWhenStale = restartable && attempt < STALE_REFRESH_ATTEMPTS;
      try {
        await respond(req, res, deps, (uow) => getBankTransferStatus({ uow, auth, request, restartWhenStale }));
        return;
      } catch (error) {
        if (!(error instanceof StaleBankTransferRefresh)) throw error;
      }
    }
  },
  async cancelBankTransfer(req, res, deps) {
    const auth = authOf(req);
    const request = req.body as Lookup;
    await respondOr503(req, res, deps, (uow) => cancelBankTransfer({ uow, auth, request }));
  },
  async simulateCorridor(req, res, deps) {
    const auth = authOf(req);
    const request = req.body as components["schemas"]["SimulateCorridorRequest"];
    await respondOr503(req, res, deps, (uow) => simulateCorridor({ uow, auth, request, requestId: req.ctx.requestId }));
  },
  async getCorridorWorkflowRun(req, res, deps) {
    res.json(
      await getWorkflowRun({
        db: deps.db.kysely,
        auth: authOf(req),
        workflowRunId: param(req, "workflowRunId"),
        hasQuery: Object.keys(req.query as object).length > 0,
        hasBody: req.body !== undefined && !(typeof req.body === "object" && Object.keys(req.body as object).length === 0),
      }),
    );
  },
  async dispatchCorridorWorkflows(req, res, deps) {
    res.json(await dispatchDueRuns({ db: deps.db.kysely, logger: req.ctx.log }));
  },
};
