// v2 payments: bank transfers (Sandbox only: simulated), corridor rehearsal and its scheduled workflow runs.
import { simulatedBankStore } from "../db/simulated-bank-store.ts";
import { cancelBankTransfer } from "../domain/bank-transfers/cancel-bank-transfer.ts";
import { createBankTransfer } from "../domain/bank-transfers/create-bank-transfer.ts";
import { getBankTransferStatus, StaleBankTransferRefresh } from "../domain/bank-transfers/get-bank-transfer-status.ts";
import { listBankTransfers } from "../domain/bank-transfers/list-bank-transfers.ts";
import { getWorkflowRun } from "../domain/corridors/get-workflow-run.ts";
import { simulateCorridor } from "../domain/corridors/simulate-corridor.ts";
import { pageWindow } from "../domain/lists/page-window.ts";
import { retryWhile } from "../lib/retry-while.ts";
import { dispatchDueRuns } from "../scheduler/dispatch-due-runs.ts";
import { chargeSpending } from "./charge-spending.ts";
import { respondOr503 } from "./respond-or-503.ts";
import { type Routes, route } from "./route.ts";

/** How often a status lookup without an Idempotency-Key starts over when a concurrent lookup recorded news first. */
const STALE_REFRESH_ATTEMPTS = 5;

export const paymentRoutes: Routes = [
  route("createBankTransfer", (context) => {
    const { body, auth, requestId, respond, deps } = context;
    return respondOr503(
      respond,
      async (uow) => {
        await chargeSpending(context, uow, { asset: body.currency, amount: body.amount });
        return createBankTransfer(uow, { auth, request: body, requestId, books: simulatedBankStore(deps.db.kysely) });
      },
      // The first transaction writes nothing before its closing statement (the transfer, its intent and the key's claim)
      // and the bank is called after it: a fresh key needs no read of its own. A key with spending limits locks and sums
      // its spends first, so its key is read before that (a replay then answers without taking the lock).
      { keyCheckedAtClose: !auth.spendingLimited },
    );
  }),
  route("listBankTransfers", async ({ query, auth, deps }) => ({
    status: 200,
    body: await listBankTransfers(deps.db.kysely, { auth, window: pageWindow(query), status: query.status }),
  })),
  route("getBankTransferStatus", async ({ body, auth, idempotent, respond }) => {
    // Without an Idempotency-Key there is no stored answer to keep: a lookup overtaken by a concurrent one starts over,
    // so every lookup advances the transfer by what the provider reports for its current state.
    return retryWhile(
      { attempts: STALE_REFRESH_ATTEMPTS, retryable: (error) => error instanceof StaleBankTransferRefresh },
      (lastAttempt) => respond((uow) => getBankTransferStatus(uow, { auth, request: body, restartWhenStale: !idempotent && !lastAttempt })),
    );
  }),
  route("cancelBankTransfer", ({ body, auth, respond, deps }) =>
    respondOr503(respond, (uow) => cancelBankTransfer(uow, { auth, request: body, books: simulatedBankStore(deps.db.kysely) })),
  ),
  route("simulateCorridor", (context) => {
    const { body, auth, requestId, respond } = context;
    return respondOr503(respond, async (uow) => {
      // A corridor run moves `amount` of `currency` from the source account (a plan_only run is counted too: it is
      // the same run, executed by a person later).
      await chargeSpending(context, uow, { asset: body.currency, amount: body.amount });
      return simulateCorridor(uow, { auth, request: body, requestId });
    });
  }),
  route("getCorridorWorkflowRun", async ({ path, query, body, auth, deps }) => ({
    status: 200,
    body: await getWorkflowRun(deps.db.kysely, {
      auth,
      workflowRunId: path.workflowRunId,
      hasQuery: Object.keys(query).length > 0,
      hasBody: body !== undefined && !(typeof body === "object" && body !== null && Object.keys(body).length === 0),
    }),
  })),
  route("dispatchCorridorWorkflows", async ({ deps, log }) => ({
    status: 200,
    body: await dispatchDueRuns({ db: deps.db.kysely, logger: log }),
  })),
];
