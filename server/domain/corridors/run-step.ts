// Executes one corridor step against its provider (or local fallback). Every side effect carries the step's stable
// key as idempotency key, and runs inside the dispatcher's transaction that also records the outcome, so a crash
// mid-step never applies an effect twice: either everything commits, or the retry repeats a keyed (idempotent) call.
// Unlike a request, the dispatcher holds its transaction across the provider calls on purpose: the transaction holds
// the run's claim (FOR UPDATE SKIP LOCKED), and the custody simulator keeps its books inside it (behind a savepoint).
import type { Tx } from "../../db/kysely.ts";
import { simulatedCustodyStore } from "../../db/simulated-custody-store.ts";
import type { UnitOfWork } from "../../db/unit-of-work/index.ts";
import { ASSET_DECIMALS } from "../../lib/chains/chain-assets.ts";
import { parseDecimalToMinor } from "../../lib/money/minor-units.ts";
import type { BankAccount, BankRail, BankTransferApi, KnownBankTransfer } from "../../providers/capabilities/bank-transfers.ts";
import { REHEARSAL_VAULT_ID } from "../../providers/simulators/custody-simulator.ts";
import { validateOperationInput } from "../../providers/validate-input.ts";
import { currencyDigits } from "../bank-transfers/bank-rails.ts";
import { minorToAmount } from "../custody/custody-assets.ts";
import { onrampRail, rampAccount, rampAccountForRail } from "./corridor-accounts.ts";
import { type FxLeg, finish, localQuote, usdRate18 } from "./corridor-fx.ts";
import { bankLegFailure, custodyLegFailure, failedStep, outcomeOfProviderError, type StepOutcome } from "./step-outcomes.ts";
import { resolveStepProvider, type StepProvider, simulatorProvider } from "./step-providers.ts";
import type { SimulateRequest, StepName, WorkflowRunRow } from "./workflow-dto.ts";

export type { StepOutcome };

/** What the dispatcher hands a step: which step, of which run, and what the steps before it produced. */
export interface StepInput {
  name: StepName;
  run: WorkflowRunRow;
  request: SimulateRequest & { destinationAddress: string; rail: BankRail };
  /** Outputs of the steps that already succeeded. */
  outputs: Partial<Record<StepName, Record<string, unknown>>>;
  stepKey: string;
}

/** A step's view while it runs: the dispatcher's transaction (which holds the run's claim) and its clock. */
interface StepContext extends Omit<StepInput, "name"> {
  tx: Tx;
  now: Date;
}

export async function runStep(uow: UnitOfWork, input: StepInput): Promise<StepOutcome> {
  const { name, ...step } = input;
  const ctx: StepContext = { ...step, tx: uow.tx, now: uow.now };
  switch (name) {
    case "fx_quote":
      return fxStep(ctx);
    case "onramp_bank_debit":
      return onrampStep(ctx);
    case "custody_transfer":
      return custodyStep(ctx);
    case "offramp_payout":
      return offrampStep(ctx);
    default:
      // Screening runs synchronously in corridor/simulate; it is never dispatched.
      return failedStep(null, false, "NOT_DISPATCHABLE", `step ${name} is not run by the scheduler`);
  }
}

const scopeOf = (run: WorkflowRunRow) => ({ organizationId: run.organizationId, environment: run.environment });

async function fxStep(ctx: StepContext): Promise<StepOutcome> {
  const { request, now } = ctx;
  const p = await resolveStepProvider(ctx.tx, scopeOf(ctx.run), "fx", "local");
  const asset = request.custody.asset;
  const payoutCurrency = request.destination.currency;
  let leg: FxLeg | null;
  const quote = p.adapter?.operations.quote;
  if (quote) {
    try {
      const first = { sellCurrency: request.currency, buyCurrency: asset, sellAmount: request.amount };
      if (validateOperationInput(quote, first).length > 0) {
        return failedStep(p, false, "UNSUPPORTED_CURRENCY", `${p.slug} does not quote ${request.currency} → ${asset}`);
      }
      const q1 = (await quote.execute({ config: p.config, input: first, now })) as { buyAmount: string; expiresAt: string };
      const decimals = ASSET_DECIMALS[asset] ?? 6;
      const stablecoinMinor = parseDecimalToMinor(q1.buyAmount, decimals) ?? 0n;
      const coin = usdRate18(asset) as bigint;
      const payout = usdRate18(payoutCurrency) as bigint;
      const source = usdRate18(request.currency) as bigint;
      leg = { ...finish({ ...request, asset, payoutCurrency, now, stablecoinMinor, coin, payout, source }), expiresAt: q1.expiresAt };
    } catch (error) {
      return outcomeOfProviderError(p, error);
    }
  } else {
    leg = localQuote({ amount: request.amount, currency: request.currency, asset, payoutCurrency, now });
  }
  if (!leg) return failedStep(p, false, "UNSUPPORTED_CURRENCY", `no FX rate for ${request.currency} → ${asset} → ${payoutCurrency}`);
  return { kind: "succeeded", output: { ...leg }, provider: p.slug, simulated: p.simulated };
}

/** One bank leg: create (keyed by the step), then read until final (at most three reads). */
async function bankLeg(
  ctx: StepContext,
  order: { amount: string; currency: string; rail: BankRail; source: BankAccount; destination: BankAccount },
): Promise<StepOutcome> {
  const p = await resolveStepProvider(ctx.tx, scopeOf(ctx.run), "bank_transfer", "simulator");
  const api: BankTransferApi | undefined = p.adapter?.capabilities?.bankTransfers;
  if (!api) return failedStep(p, false, "PROVIDER_MISCONFIGURED", `${p.slug} does not implement bank transfers`);
  const call = { config: p.config, now: ctx.now };
  const reference = ctx.request.reference ?? null;
  try {
    const { providerTransferId } = await api.create(call, {
      idempotencyKey: ctx.stepKey,
      ...order,
      reference,
      purposeCode: null,
    });
    const known: KnownBankTransfer = { providerTransferId, status: "pending", amount: order.amount, rail: order.rail, reference };
    let providerReference: string | null = null;
    let failureReason: { code: string; message: string } | null = null;
    for (let read = 0; read < 3 && !["completed", "failed", "returned", "cancelled"].includes(known.status); read++) {
      const state = await api.get(call, known);
      known.status = state.status;
      providerReference = state.providerReference ?? providerReference;
      failureReason = state.failureReason ?? null;
    }
    const failure = bankLegFailure(p, known.status, failureReason);
    if (failure) return failure;
    return {
      kind: "succeeded",
      output: { rail: order.rail, amount: order.amount, currency: order.currency, providerReference },
      provider: p.slug,
      simulated: p.simulated,
    };
  } catch (error) {
    return outcomeOfProviderError(p, error);
  }
}

function onrampStep(ctx: StepContext): Promise<StepOutcome> {
  const { request } = ctx;
  return bankLeg(ctx, {
    amount: request.amount,
    currency: request.currency,
    rail: onrampRail(request.source, request.currency),
    source: request.source,
    destination: rampAccount(request.source.type),
  });
}

function offrampStep(ctx: StepContext): Promise<StepOutcome> {
  const { request, outputs } = ctx;
  const fx = outputs.fx_quote as FxLeg | undefined;
  if (!fx) return Promise.resolve(failedStep(null, false, "MISSING_QUOTE", "the fx_quote step has no output"));
  const amount = fx.payoutAmount;
  if ((parseDecimalToMinor(amount, currencyDigits(request.destination.currency)) ?? 0n) <= 0n) {
    return Promise.resolve(failedStep(null, false, "AMOUNT_TOO_SMALL", "the payout amount rounds to zero"));
  }
  return bankLeg(ctx, {
    amount,
    currency: request.destination.currency,
    rail: request.rail,
    source: rampAccountForRail(request.rail),
    destination: request.destination.account,
  });
}

async function custodyStep(ctx: StepContext): Promise<StepOutcome> {
  const { request, outputs, tx, now } = ctx;
  const fx = outputs.fx_quote as FxLeg | undefined;
  if (!fx) return failedStep(null, false, "MISSING_QUOTE", "the fx_quote step has no output");
  const { walletId, asset, chain } = request.custody;
  // A named wallet is served by the organization's custody connection; otherwise (or without one) the custody
  // simulator's rehearsal vault sends.
  const wallet = walletId
    ? await tx.selectFrom("CustodyWallet").select(["providerWalletId", "provider"]).where("id", "=", walletId).executeTakeFirst()
    : undefined;
  let p: StepProvider = await resolveStepProvider(tx, scopeOf(ctx.run), "custody", "simulator");
  let providerWalletId = wallet?.providerWalletId ?? null;
  if (!providerWalletId || !p.adapter || p.slug !== wallet?.provider) {
    p = simulatorProvider("custody");
    providerWalletId = REHEARSAL_VAULT_ID;
  }
  const api = p.adapter?.capabilities?.custody;
  if (!api) return failedStep(p, false, "PROVIDER_MISCONFIGURED", `${p.slug} does not implement custody`);
  // The dispatcher's transaction: the simulator's books commit or roll back with the step's outcome.
  const call = { config: p.config, books: simulatedCustodyStore(tx), now };
  try {
    const { providerTransferId } = await api.submitTransfer(call, {
      idempotencyKey: ctx.stepKey,
      providerWalletId,
      chain,
      destination: request.destinationAddress,
      asset,
      amountMinor: fx.stablecoinMinor,
      note: null,
    });
    const state = await api.getTransfer(call, { providerTransferId });
    if (!state) return failedStep(p, false, "PROVIDER_FAILED", "the custody provider does not know the transfer it accepted");
    const failure = custodyLegFailure(p, state);
    if (failure) return failure;
    return {
      kind: "succeeded",
      output: {
        asset,
        chain,
        amountMinor: fx.stablecoinMinor,
        amount: minorToAmount(BigInt(fx.stablecoinMinor), ASSET_DECIMALS[asset] ?? 6),
        destinationAddress: request.destinationAddress,
        providerTransferId,
        txHash: state.txHash,
      },
      provider: p.slug,
      simulated: p.simulated,
    };
  } catch (error) {
    return outcomeOfProviderError(p, error);
  }
}
