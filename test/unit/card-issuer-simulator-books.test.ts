// The card issuing simulator's books (issue 26): with them, a write executes at most once per idempotency key (a repeat
// answers the first execution), `lookup` tells whether and how it executed, and the magic fund amounts make an unknown
// outcome (executed or not) or a slow answer; without them it is stateless as before and `lookup` cannot answer.
import { describe, expect, it } from "vitest";
import { isUnknownOutcome } from "../../server/db/provider-intents.ts";
import type { CardIssuerContext } from "../../server/providers/capabilities/card-issuing.ts";
import type { SimulatedCardIssuerCall, SimulatedCardIssuerStore } from "../../server/providers/capabilities/simulated-card-issuer-store.ts";
import { simulatedCardIssuer as issuer } from "../../server/providers/simulators/card-issuance-simulator.ts";

function memoryBooks() {
  const calls = new Map<string, SimulatedCardIssuerCall>();
  const books: SimulatedCardIssuerStore = {
    async execute(reference, call) {
      if (!calls.has(reference)) calls.set(reference, call);
      return calls.get(reference) as SimulatedCardIssuerCall;
    },
    find: async (reference) => calls.get(reference),
  };
  return { calls, ctx: (idempotencyKey: string): CardIssuerContext => ({ config: {}, now: new Date(), idempotencyKey, books }) };
}

const fund = (ctx: CardIssuerContext, amount: string) => issuer.fundCard(ctx, { reference: "sim_card_x", amount, asset: "USDC" });

describe("the simulated card issuer's books", () => {
  it("executes a key once and answers the first execution to a repeat; lookup tells what it executed", async () => {
    const { calls, ctx } = memoryBooks();
    const first = await issuer.issueCard(ctx("card_a"), {
      cardId: "card_a",
      programmeReference: "p",
      network: "visa",
      cardholderName: null,
    });
    const again = await issuer.issueCard(
      { ...ctx("card_a"), now: new Date("2040-01-01") },
      {
        cardId: "card_a",
        programmeReference: "p",
        network: "visa",
        cardholderName: null,
      },
    );
    expect(again).toEqual(first);
    await fund(ctx("ctx_a"), "10.00");
    await fund(ctx("ctx_a"), "10.00");
    expect([...calls.keys()]).toEqual(["card_a", "ctx_a"]);
    expect(await issuer.lookup(ctx("ctx_a"), { reference: "ctx_a" })).toEqual({
      executed: true,
      result: { amount: "10.00", asset: "USDC" },
    });
    expect(await issuer.lookup(ctx("ctx_b"), { reference: "ctx_b" })).toEqual({ executed: false });
  });

  it("777.77 executes then times out, 778.88 times out without executing, 779.99 answers after 3 s", async () => {
    const { calls, ctx } = memoryBooks();
    const lost = await fund(ctx("ctx_777"), "777.77").catch((error: unknown) => error);
    expect(isUnknownOutcome(lost)).toBe(true);
    expect(calls.has("ctx_777")).toBe(true);
    const never = await fund(ctx("ctx_778"), "778.88").catch((error: unknown) => error);
    expect(isUnknownOutcome(never)).toBe(true);
    expect(calls.has("ctx_778")).toBe(false);
    const started = Date.now();
    await fund(ctx("ctx_779"), "779.99");
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_900);
    expect(calls.has("ctx_779")).toBe(true);
  });

  it("without books: stateless, no unknown outcome, and lookup cannot answer", async () => {
    const ctx: CardIssuerContext = { config: {}, now: new Date(), idempotencyKey: "ctx_c" };
    await expect(fund(ctx, "777.77")).resolves.toBeUndefined();
    await expect(issuer.lookup(ctx, { reference: "ctx_c" })).rejects.toThrow(/keeps no books/);
  });
});
