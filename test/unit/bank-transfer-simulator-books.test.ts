// The bank transfer simulator with its books (issue 26): a reference executes at most once, `lookup` tells whether and
// as which transfer it executed, and the magic amounts make an unknown outcome (executed or not) or a slow answer.
// Without books (the corridor's legs) it stays stateless and answers as before.
import { describe, expect, it } from "vitest";
import { isUnknownOutcome } from "../../server/db/provider-intents.ts";
import { callProvider } from "../../server/domain/providers/provider-call.ts";
import { backoffSeconds } from "../../server/domain/reconcile/reconcile-intents.ts";
import { IoTimeoutError } from "../../server/lib/with-io-timeout.ts";
import type { BankTransferApi, BankTransferOrder } from "../../server/providers/capabilities/bank-transfers.ts";
import type { SimulatedBankStore } from "../../server/providers/capabilities/simulated-bank-store.ts";
import { ProviderExecutionError } from "../../server/providers/provider-adapter.ts";
import { bankTransferSimulator } from "../../server/providers/simulators/bank-transfer-simulator.ts";

const api = bankTransferSimulator.capabilities?.bankTransfers as BankTransferApi;

/** The books in memory. */
function memoryBooks() {
  const rows = new Map<string, { providerTransferId: string }>();
  const books: SimulatedBankStore = {
    async execute(reference, execution) {
      const standing = rows.get(reference);
      if (standing) return standing;
      rows.set(reference, execution);
      return execution;
    },
    async find(reference) {
      return rows.get(reference);
    },
  };
  return { books, rows };
}

const order = (idempotencyKey: string, amount = "1250.00"): BankTransferOrder =>
  ({
    idempotencyKey,
    amount,
    currency: "EUR",
    rail: "sepa",
    source: { type: "iban", iban: "DE89370400440532013000", accountHolderName: "A", country: "DE" },
    destination: { type: "iban", iban: "FR1420041010050500013M02606", accountHolderName: "B", country: "FR" },
    reference: null,
    purposeCode: null,
  }) as BankTransferOrder;

describe("the bank transfer simulator's books", () => {
  it("executes a reference once: a repeated call answers the first transfer; lookup finds it", async () => {
    const { books, rows } = memoryBooks();
    const ctx = { config: {}, now: new Date(), books };
    const first = await api.create(ctx, order("bt_1"));
    expect(await api.create(ctx, order("bt_1"))).toEqual(first);
    expect(rows.size).toBe(1);
    expect(await api.lookup(ctx, "bt_1")).toEqual({ executed: true, providerTransferId: first.providerTransferId });
    expect(await api.lookup(ctx, "bt_unknown")).toEqual({ executed: false });
  });

  it("777.77 executes and then times out; 778.88 times out without executing: both unknown outcomes at once", async () => {
    const { books } = memoryBooks();
    const ctx = { config: {}, now: new Date(), books };
    const started = Date.now();
    await expect(api.create(ctx, order("bt_777", "777.77"))).rejects.toBeInstanceOf(IoTimeoutError);
    await expect(api.create(ctx, order("bt_778", "778.88"))).rejects.toBeInstanceOf(IoTimeoutError);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(await api.lookup(ctx, "bt_777")).toMatchObject({ executed: true });
    expect(await api.lookup(ctx, "bt_778")).toEqual({ executed: false });
  });

  it("without books: stateless as before (the magic timeouts off), and lookup cannot answer", async () => {
    const ctx = { config: {}, now: new Date() };
    expect((await api.create(ctx, order("bt_2", "777.77"))).providerTransferId).toMatch(/^sim_bt_/);
    await expect(api.lookup(ctx, "bt_2")).rejects.toBeInstanceOf(ProviderExecutionError);
  });
});

describe("the simulator's cancellation, by its reference", () => {
  const known = (reference: string | null) =>
    ({ providerTransferId: "sim_bt_x", status: "pending", amount: "1250.00", rail: "sepa", reference }) as const;

  it("cancels a reference once; lookup finds it; the CANCEL-LOST references make an unknown outcome, executed or not", async () => {
    const { books, rows } = memoryBooks();
    const ctx = { config: {}, now: new Date(), books };
    await api.cancel(ctx, known("INV-1"), "bt_1:cancel");
    await api.cancel(ctx, known("INV-1"), "bt_1:cancel");
    expect(rows.size).toBe(1);
    expect(await api.lookup(ctx, "bt_1:cancel")).toEqual({ executed: true, providerTransferId: "sim_bt_x" });
    await expect(api.cancel(ctx, known("CANCEL-LOST-EXECUTED 1"), "bt_2:cancel")).rejects.toBeInstanceOf(IoTimeoutError);
    await expect(api.cancel(ctx, known("CANCEL-LOST 1"), "bt_3:cancel")).rejects.toBeInstanceOf(IoTimeoutError);
    expect(await api.lookup(ctx, "bt_2:cancel")).toMatchObject({ executed: true });
    expect(await api.lookup(ctx, "bt_3:cancel")).toEqual({ executed: false });
  });

  it("without books: grants it as before (no unknown outcome to rehearse)", async () => {
    await expect(api.cancel({ config: {}, now: new Date() }, known("CANCEL-LOST 1"), "bt_4:cancel")).resolves.toBeUndefined();
  });
});

describe("isUnknownOutcome", () => {
  it("is a timeout, also as the cause of the problem callProvider answers; a refusal is known", async () => {
    const timedOut = await callProvider({ provider: "bank_transfer" }, async () => {
      throw new IoTimeoutError("slow");
    }).catch((error: unknown) => error);
    const refused = await callProvider({ provider: "bank_transfer" }, async () => {
      throw new ProviderExecutionError("no");
    }).catch((error: unknown) => error);
    expect([isUnknownOutcome(timedOut), isUnknownOutcome(refused), isUnknownOutcome(new Error("x"))]).toEqual([true, false, false]);
  });
});

describe("backoffSeconds", () => {
  it("doubles per attempt from RECONCILE_AFTER_SECONDS, at most an hour", () => {
    expect([1, 2, 3, 4].map((attempt) => backoffSeconds(30, attempt))).toEqual([30, 60, 120, 240]);
    expect(backoffSeconds(30, 20)).toBe(3_600);
  });
});
