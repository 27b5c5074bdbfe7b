// Sandbox bank transfers: rails per country (providers/invoke), and `capabilities.bankTransfers` for the bank-transfer
// endpoints and the corridor's bank legs. Deterministic: the provider id derives from the caller's idempotency key, and
// each status read advances a transfer by one state from the state the caller last recorded. Given its books (the call
// context's `books`: the bank-transfer endpoints and the reconciler pass them), it records each execution by reference,
// so a reference never executes twice and `lookup` answers whether it executed; without them (the corridor's legs) it
// is stateless and `lookup` cannot answer.
// Magic values (documented in the spec): amount 13.13 → failed, 14.14 → returned, reference TIMEOUT… → create fails,
// reference UNREACHABLE… → status reads and cancellations fail; 777.77 → executes then times out, 778.88 → times out
// without executing, 779.99 → answers after 3 s; plus the shared FAILING_AMOUNT. A cancellation's unknown outcome is
// rehearsed by the transfer's reference (the amounts already decide its creation): CANCEL-LOST-EXECUTED… → the
// cancellation executes, then times out; CANCEL-LOST… (otherwise) → it times out without executing.
import { createHash } from "node:crypto";
import type { BankTransferApi, BankTransferFailure, KnownBankTransfer } from "../capabilities/bank-transfers.ts";
import { type ProviderAdapter, ProviderExecutionError } from "../provider-adapter.ts";
import { parseObjectConfig } from "./config.ts";
import {
  failOnMagic,
  SLOW_AMOUNT,
  SLOW_ANSWER_MS,
  simulatedTimeout,
  TIMEOUT_NEVER_EXECUTED_AMOUNT,
  TIMEOUT_THEN_EXECUTED_AMOUNT,
} from "./magic-values.ts";

/** Amount that makes a simulated transfer end `failed` (insufficient funds). */
export const FAILED_AMOUNT = "13.13";
/** Amount that makes a simulated transfer end `returned` (account closed). */
export const RETURNED_AMOUNT = "14.14";
/** A reference starting with this makes the simulated bank time out on creation (and on the corridor's route check). */
export const TIMEOUT_REFERENCE = "TIMEOUT";
/** A reference starting with this makes every later status read and cancellation of the transfer fail. */
export const UNREACHABLE_REFERENCE = "UNREACHABLE";
/** A reference starting with this makes the bank cancel the transfer, then time out (books only: the reconciler finds
 * the cancellation executed). Checked before CANCEL_LOST_REFERENCE, which it starts with. */
export const CANCEL_LOST_EXECUTED_REFERENCE = "CANCEL-LOST-EXECUTED";
/** A reference starting with this (and not CANCEL_LOST_EXECUTED_REFERENCE) makes the bank time out on a cancellation
 * without executing it (books only: the reconciler finds nothing, the transfer stays as it was). */
export const CANCEL_LOST_REFERENCE = "CANCEL-LOST";

const SANDBOX_RAILS: Record<string, string[]> = {
  US: ["ach", "wire"],
  GB: ["fps", "swift"],
  DEFAULT_EEA: ["sepa", "sepa_instant", "swift"],
  OTHER: ["swift"],
};
const EEA = new Set("AT BE BG HR CY CZ DK EE FI FR DE GR HU IE IT LV LT LU MT NL PL PT RO SK SI ES SE IS LI NO".split(" "));

const hash = (text: string) => createHash("sha256").update(text).digest("hex");

/** The rail's own identifier: end-to-end id (SEPA, FPS), ACH trace number, Fedwire IMAD, SWIFT UETR. */
function railReference(known: KnownBankTransfer): string {
  const h = hash(`ref|${known.providerTransferId}`);
  switch (known.rail) {
    case "ach":
      return BigInt(`0x${h.slice(0, 15)}`)
        .toString()
        .padStart(15, "0")
        .slice(0, 15);
    case "wire":
      // IMAD: input cycle date, 8-character source id, 6-digit sequence.
      return `20261122SIMB${h.slice(0, 4).toUpperCase()}${BigInt(`0x${h.slice(6, 12)}`)
        .toString()
        .padStart(6, "0")
        .slice(0, 6)}`;
    case "swift":
      return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
    default:
      return `E2E-${h.slice(0, 16).toUpperCase()}`;
  }
}

function failureFor(known: KnownBankTransfer, code: "insufficient_funds" | "account_closed"): BankTransferFailure {
  const ach = known.rail === "ach";
  return code === "insufficient_funds"
    ? { code, message: "The source account has insufficient funds.", railCode: ach ? "R01" : "AM04" }
    : { code, message: "The beneficiary account is closed.", railCode: ach ? "R02" : "AC04" };
}

function failIfUnreachable(known: KnownBankTransfer): void {
  if (known.reference?.startsWith(UNREACHABLE_REFERENCE)) {
    throw new ProviderExecutionError(`the simulated bank cannot be reached (reference ${UNREACHABLE_REFERENCE}…)`);
  }
}

const bankTransferCapability: BankTransferApi = {
  async checkRoute(_ctx, { reference }) {
    if (reference?.startsWith(TIMEOUT_REFERENCE))
      throw new ProviderExecutionError(`simulated bank timeout (reference ${TIMEOUT_REFERENCE}…)`);
    return { available: true, reason: null };
  },
  async create(ctx, order) {
    failOnMagic({ amount: order.amount });
    if (order.reference?.startsWith(TIMEOUT_REFERENCE)) {
      throw new ProviderExecutionError(`simulated bank timeout (reference ${TIMEOUT_REFERENCE}…)`);
    }
    const executed = { providerTransferId: `sim_bt_${hash(`bt|${order.idempotencyKey}`).slice(0, 24)}` };
    // Stateless (no books): as before books existed, and without the unknown-outcome amounts, which need a lookup (the corridor's legs).
    if (!ctx.books) return executed;
    if (order.amount === TIMEOUT_NEVER_EXECUTED_AMOUNT) throw simulatedTimeout("The simulated bank");
    if (order.amount === SLOW_AMOUNT) await new Promise((resolve) => setTimeout(resolve, SLOW_ANSWER_MS));
    // The first execution under the reference stands; a repeated call answers it.
    const standing = await ctx.books.execute(order.idempotencyKey, executed);
    if (order.amount === TIMEOUT_THEN_EXECUTED_AMOUNT) throw simulatedTimeout("The simulated bank");
    return standing;
  },
  async lookup(ctx, idempotencyKey) {
    if (!ctx.books) throw new ProviderExecutionError("the simulated bank keeps no books here: it cannot tell what it executed");
    const found = await ctx.books.find(idempotencyKey);
    return found ? { executed: true, providerTransferId: found.providerTransferId } : { executed: false };
  },
  async get(_ctx, known) {
    failIfUnreachable(known);
    switch (known.status) {
      case "pending":
        return { status: "processing", providerReference: railReference(known), failureReason: null };
      case "processing":
        if (known.amount === FAILED_AMOUNT) {
          return { status: "failed", providerReference: railReference(known), failureReason: failureFor(known, "insufficient_funds") };
        }
        if (known.amount === RETURNED_AMOUNT) {
          return { status: "returned", providerReference: railReference(known), failureReason: failureFor(known, "account_closed") };
        }
        return { status: "completed", providerReference: railReference(known), failureReason: null };
      default:
        return { status: known.status, providerReference: known.status === "cancelled" ? null : railReference(known), failureReason: null };
    }
  },
  async cancel(ctx, known, reference) {
    failIfUnreachable(known);
    // Stateless (no books: the corridor's legs): nothing to record, and no unknown outcome to rehearse.
    if (!ctx.books) return;
    const lost = known.reference?.startsWith(CANCEL_LOST_REFERENCE) ?? false;
    const executes = !lost || (known.reference?.startsWith(CANCEL_LOST_EXECUTED_REFERENCE) ?? false);
    // Recorded under the cancellation's own reference (the first one stands), so `lookup(reference)` answers it.
    if (executes) await ctx.books.execute(reference, { providerTransferId: known.providerTransferId });
    if (lost) throw simulatedTimeout("The simulated bank");
  },
};

export const bankTransferSimulator: ProviderAdapter = {
  slug: "simulator",
  category: "bank_transfer",
  name: "Sandbox bank transfer simulator",
  simulator: true,
  parseConfig: (config) => parseObjectConfig(config ?? {}, {}),
  capabilities: { bankTransfers: bankTransferCapability },
  operations: {
    list_rails: {
      description: "Payment rails available for a country.",
      kind: "read",
      requiresApproval: false,
      inputSchema: {
        type: "object",
        required: ["country"],
        additionalProperties: false,
        properties: { country: { type: "string", pattern: "^[A-Z]{2}$" } },
      },
      async execute({ input }) {
        const { country } = input as { country: string };
        const rails = SANDBOX_RAILS[country] ?? (EEA.has(country) ? SANDBOX_RAILS.DEFAULT_EEA : SANDBOX_RAILS.OTHER);
        return { country, rails };
      },
    },
  },
};
