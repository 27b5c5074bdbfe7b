// POST corridor/simulate: validate both bank legs, the custody leg and the FX pair → screen synchronously (403 blocks,
// nothing created) → plan a provider for every step → ask the bank provider whether the payout route is served (502
// when it cannot answer, 400 when it does not serve it) → the run and its five steps, queued for the scheduler
// (plan_only: completed at once, nothing queued).
//
// Two transactions (server/db/unit-of-work/provider-step.ts), because the route check is a provider call and no transaction stays
// open across one. The first records the screening decisions and the run with its steps, not yet due (`nextRunAt`
// null, so no dispatcher claims it before the route is confirmed); the second makes it due and records the activity
// event, or deletes the run (and its steps) when the route check failed: no run.
import type { AuthContext } from "../../context.ts";
import { ownedBy } from "../../db/owned-by.ts";
import { afterProviderCall, type ProviderStep, type UnitOfWork } from "../../db/unit-of-work/index.ts";
import { type FieldError, ServiceError } from "../../errors/service-error.ts";
import { newId } from "../../lib/ids.ts";
import type { OperationOutcome } from "../../spec/operation-types.ts";
import { recordActivity } from "../activity/record-activity.ts";
import { deriveRail, validateBankOrder } from "../bank-transfers/bank-rails.ts";
import { chainCarries, isValidChainAddress } from "../custody/custody-assets.ts";
import { callProvider } from "../providers/provider-call.ts";
import { offrampDepositAddress, rampAccount, rampAccountForRail } from "./corridor-accounts.ts";
import { hasLocalRate } from "./corridor-fx.ts";
import { corridorSubject, screenCorridor } from "./screen-corridor.ts";
import { resolveStepProvider, simulatorProvider } from "./step-providers.ts";
import {
  type SimulateRequest,
  STEP_NAMES,
  type StepName,
  toWorkflowRunDto,
  type WorkflowRunRow,
  type WorkflowStepRow,
} from "./workflow-dto.ts";
import { emitWorkflowRunEvent } from "./workflow-run-events.ts";

function validate(request: SimulateRequest, wallet: { status: string; chain: string; provider: string } | null): FieldError[] {
  const errors: FieldError[] = [];
  const onramp = validateBankOrder(
    { amount: request.amount, currency: request.currency, source: request.source, destination: rampAccount(request.source.type) },
    {
      amount: "/body/amount",
      currency: "/body/currency",
      source: "/body/source",
      destination: "/body/source",
      rail: "/body/source",
      reference: "/body/reference",
    },
  );
  // No rail given: it derives from the ramp's account facing the source, i.e. onrampRail(source, currency).
  errors.push(...onramp.errors);
  const payoutRail = request.rail ?? deriveRail(request.destination.account, request.destination.currency);
  const payout = validateBankOrder(
    {
      amount: "1",
      currency: request.destination.currency,
      source: rampAccountForRail(payoutRail),
      destination: request.destination.account,
      rail: payoutRail,
      reference: request.reference,
    },
    {
      amount: "/body/destination/currency",
      currency: "/body/destination/currency",
      source: request.rail ? "/body/rail" : "/body/destination/account",
      destination: "/body/destination/account",
      rail: "/body/rail",
      reference: "/body/reference",
    },
  );
  errors.push(...payout.errors.filter((e) => !errors.some((x) => x.path === e.path && x.message === e.message)));
  for (const [path, currency] of [
    ["/body/currency", request.currency],
    ["/body/destination/currency", request.destination.currency],
  ] as const) {
    if (!hasLocalRate(currency)) errors.push({ path, message: `${currency} has no sandbox FX rate` });
  }
  const { chain, asset, walletId } = request.custody;
  if (!chainCarries(chain, asset)) errors.push({ path: "/body/custody/asset", message: `${asset} is not carried on ${chain}` });
  if (walletId !== undefined && (wallet?.status !== "active" || wallet.chain !== chain)) {
    errors.push({ path: "/body/custody/walletId", message: `must be an active custody wallet of the organization on ${chain}` });
  }
  if (request.destinationAddress !== undefined && !isValidChainAddress(chain, request.destinationAddress)) {
    errors.push({ path: "/body/destinationAddress", message: `is not a valid ${chain} address` });
  }
  return errors;
}

type CorridorOutcome = OperationOutcome<"simulateCorridor">;

export async function simulateCorridor(
  uow: UnitOfWork,
  options: {
    auth: AuthContext;
    request: SimulateRequest;
    requestId: string;
  },
): Promise<CorridorOutcome | ProviderStep<void, CorridorOutcome>> {
  const { auth, request, requestId } = options;
  const executionMode = request.executionMode ?? "rehearse";
  const wallet = request.custody.walletId
    ? ((await uow.tx
        .selectFrom("CustodyWallet")
        .select(["status", "chain", "provider"])
        .where("id", "=", request.custody.walletId)
        .where(ownedBy(auth))
        .executeTakeFirst()) ?? null)
    : null;
  const errors = validate(request, wallet);
  if (errors.length > 0) {
    throw new ServiceError("VALIDATION_ERROR", errors.map((e) => `${e.path} ${e.message}`).join("; "), { errors });
  }
  const destinationAddress = request.destinationAddress ?? offrampDepositAddress(request.custody.chain);
  const screening = await screenCorridor({ uow, auth, subject: corridorSubject(request, destinationAddress), requestId });

  // Plan: the provider of every step, as the scheduler will resolve it.
  const scope = { organizationId: auth.organizationId, environment: auth.environment };
  const fx = await resolveStepProvider(uow.tx, scope, "fx", "local");
  const bank = await resolveStepProvider(uow.tx, scope, "bank_transfer", "simulator");
  // The custody leg sends from the named wallet through the custody connection it was created with; otherwise (or when
  // that connection is gone) from the custody simulator's rehearsal vault.
  const connected = wallet ? await resolveStepProvider(uow.tx, scope, "custody", "simulator") : null;
  const custody = connected?.slug === wallet?.provider && connected ? connected : simulatorProvider("custody");
  const payoutRail = request.rail ?? deriveRail(request.destination.account, request.destination.currency);
  const planned: Record<StepName, { provider: string; simulated: boolean }> = {
    screening: { provider: screening.provider, simulated: true },
    fx_quote: { provider: fx.slug, simulated: fx.simulated },
    onramp_bank_debit: { provider: bank.slug, simulated: bank.simulated },
    custody_transfer: { provider: custody.slug, simulated: custody.simulated },
    offramp_payout: { provider: bank.slug, simulated: bank.simulated },
  };
  const workflowRunId = newId("wfr");
  const planOnly = executionMode === "plan_only";
  const api = bank.adapter?.capabilities?.bankTransfers;
  const now = uow.now;

  const run: WorkflowRunRow = {
    id: workflowRunId,
    organizationId: auth.organizationId,
    environment: auth.environment,
    status: planOnly ? "completed" : "queued",
    executionMode,
    amount: request.amount,
    currency: request.currency,
    payoutCurrency: request.destination.currency,
    asset: request.custody.asset,
    chain: request.custody.chain,
    reference: request.reference ?? null,
    request: { ...request, executionMode, destinationAddress, rail: payoutRail },
    simulated: Object.values(planned).some((p) => p.simulated),
    nextRunAt: planOnly ? null : now,
    version: 1,
    createdAt: now,
    updatedAt: now,
  };
  const steps: WorkflowStepRow[] = STEP_NAMES.map((name, position) => {
    const first = name === "screening";
    return {
      id: newId("wfs"),
      runId: workflowRunId,
      position,
      name,
      status: first ? "succeeded" : planOnly ? "skipped" : "pending",
      attempts: first ? 1 : 0,
      provider: planned[name].provider,
      simulated: planned[name].simulated,
      stepKey: `${workflowRunId}:${name}`,
      startedAt: first ? screening.startedAt : null,
      finishedAt: first ? screening.finishedAt : null,
      output: first ? screening.output : null,
      error: null,
      updatedAt: now,
    };
  });
  // Nothing in this transaction reads the rows back: they are written with the commit. Not due while the route check
  // is outstanding.
  uow.insertLater("WorkflowRun", { ...run, request: JSON.stringify(run.request), nextRunAt: api ? null : run.nextRunAt });
  uow.insertLater(
    "WorkflowStep",
    steps.map((step) => ({ ...step, output: step.output === null ? null : JSON.stringify(step.output), error: null })),
  );
  const created = (u: UnitOfWork): CorridorOutcome => {
    recordActivity(u, {
      organizationId: auth.organizationId,
      environment: auth.environment,
      type: "corridor_run.created",
      resourceId: workflowRunId,
    });
    emitWorkflowRunEvent(u, "workflow_run.created", run, steps);
    // plan_only: nothing is queued; the run is created completed.
    if (planOnly) emitWorkflowRunEvent(u, "workflow_run.completed", run, steps);
    return {
      status: 202,
      body: toWorkflowRunDto(run, steps),
      headers: { Location: `/api/v2/agent/payments/corridor/workflows/${workflowRunId}` },
    };
  };
  if (!api) return created(uow);

  return afterProviderCall({
    async call() {
      const route = await callProvider({ provider: "bank_transfer", what: "check the payout route" }, () =>
        api.checkRoute(
          { config: bank.config, now: new Date() },
          {
            rail: payoutRail,
            currency: request.destination.currency,
            sourceCountry: request.source.country,
            destinationCountry: request.destination.account.country,
            reference: request.reference ?? null,
          },
        ),
      );
      if (!route.available) {
        throw new ServiceError("VALIDATION_ERROR", `The bank provider does not serve this payout route: ${route.reason ?? "unavailable"}`, {
          errors: [{ path: "/body/rail", message: route.reason ?? "route not served" }],
        });
      }
    },
    async onResult(uow2) {
      if (run.nextRunAt !== null) {
        uow2.deferLater((db) =>
          db.updateTable("WorkflowRun").set({ nextRunAt: run.nextRunAt, updatedAt: now }).where("id", "=", workflowRunId),
        );
      }
      return created(uow2);
    },
    // No run when the route is not confirmed (its steps go with it: ON DELETE CASCADE).
    async onFailure(uow2) {
      uow2.deferLater((db) => db.deleteFrom("WorkflowRun").where("id", "=", workflowRunId));
    },
  });
}
