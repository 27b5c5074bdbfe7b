// Sandbox card issuing: the only card_issuance adapter. Deterministic; never produces a card number or CVC. The card
// records live in Coinplane's database; given its books (the call context's `books`: the card write endpoints and the
// reconciler pass them), the simulator records each write it executes under the caller's idempotency key, so a key
// never executes twice and `lookup` answers whether (and how) it executed (issue 26); without them it is stateless.
// Magic values (documented in the card operations of the spec): amounts 403.03 / 429.29 / 501.01 / 666.66 on fund,
// authorization, capture and reversal, and the `Sandbox-Simulate-Error` header on every card endpoint; with books, on
// fund's amount, issue's and a limits change's `limits.perAuthorization`, and the start of a status change's `reason`:
// 777.77 → executes then times out, 778.88 → times out without executing, 779.99 → answers after 3 s.
import { createHash } from "node:crypto";
import { type CardIssuerApi, type CardIssuerContext, CardIssuerError, type CardIssuerFailure } from "../capabilities/card-issuing.ts";
import { type ProviderAdapter, ProviderExecutionError } from "../provider-adapter.ts";
import { parseObjectConfig } from "./config.ts";
import {
  FAILING_AMOUNT,
  SLOW_AMOUNT,
  SLOW_ANSWER_MS,
  simulatedTimeout,
  TIMEOUT_NEVER_EXECUTED_AMOUNT,
  TIMEOUT_THEN_EXECUTED_AMOUNT,
} from "./magic-values.ts";

/** Exact `amount` strings that make the simulated issuer fail. */
export const CARD_MAGIC_AMOUNTS: Readonly<Record<string, CardIssuerFailure>> = Object.freeze({
  "403.03": "PROVIDER_AUTHORIZATION_DENIED",
  "429.29": "PROVIDER_RATE_LIMITED",
  "501.01": "CARD_OPERATION_NOT_SUPPORTED",
  [FAILING_AMOUNT]: "PROVIDER_EXECUTION_FAILED",
});

/** Years until a simulated card expires. */
export const SIMULATED_CARD_VALIDITY_YEARS = 3;

function fail(failure: CardIssuerFailure, why: string): never {
  if (failure === "PROVIDER_EXECUTION_FAILED") throw new ProviderExecutionError(`simulated card issuer failure (${why})`);
  const messages = {
    PROVIDER_AUTHORIZATION_DENIED: "The card issuer denied the operation",
    CARD_REQUEST_REJECTED: "The card issuer rejected the request",
    PROVIDER_RATE_LIMITED: "The card issuer is rate limiting requests",
    CARD_OPERATION_NOT_SUPPORTED: "The card issuer does not support this operation",
  } as const;
  throw new CardIssuerError(failure, `${messages[failure]} (simulated: ${why})`);
}

/** Fails as documented when the request carries a magic value; otherwise returns. */
function checkMagic(ctx: CardIssuerContext, amount?: string): void {
  if (ctx.simulate) fail(ctx.simulate, `Sandbox-Simulate-Error ${ctx.simulate}`);
  const failure = amount === undefined ? undefined : CARD_MAGIC_AMOUNTS[amount];
  if (failure) fail(failure, `amount ${amount}`);
}

/** A status change has no amount: the unknown-outcome magic values rehearse it as the start of its `reason`. */
function unknownOutcomePrefix(reason: string | null | undefined): string | undefined {
  return [TIMEOUT_THEN_EXECUTED_AMOUNT, TIMEOUT_NEVER_EXECUTED_AMOUNT, SLOW_AMOUNT].find((value) => reason?.startsWith(value));
}

const digest = (text: string) => createHash("sha256").update(text).digest();

/** A write executed once per idempotency key when the books are given: the first execution's answer stands and a
 * repeated call answers it. `amount` (fund) may be one of the unknown-outcome magic amounts (magic-values.ts). */
async function executeOnce<T extends object>(ctx: CardIssuerContext, operation: string, answer: () => T, amount?: string): Promise<T> {
  const reference = ctx.idempotencyKey;
  if (!ctx.books || !reference) return answer();
  if (amount === TIMEOUT_NEVER_EXECUTED_AMOUNT) throw simulatedTimeout("The simulated card issuer");
  if (amount === SLOW_AMOUNT) await new Promise((resolve) => setTimeout(resolve, SLOW_ANSWER_MS));
  const standing = await ctx.books.execute(reference, { operation, result: answer() as Record<string, unknown> });
  if (amount === TIMEOUT_THEN_EXECUTED_AMOUNT) throw simulatedTimeout("The simulated card issuer");
  return standing.result as T;
}

export const simulatedCardIssuer: CardIssuerApi = {
  async createProgramme(ctx, { programmeId }) {
    checkMagic(ctx);
    return executeOnce(ctx, "create_programme", () => ({ reference: `sim_prg_${digest(programmeId).toString("hex").slice(0, 16)}` }));
  },
  async issueCard(ctx, { cardId, perAuthorization }) {
    checkMagic(ctx);
    const hash = digest(cardId);
    const issued = () => ({
      reference: `sim_card_${hash.toString("hex").slice(0, 16)}`,
      last4: String(hash.readUInt32BE(0) % 10_000).padStart(4, "0"),
      expMonth: (hash.readUInt8(4) % 12) + 1,
      expYear: ctx.now.getUTCFullYear() + SIMULATED_CARD_VALIDITY_YEARS,
    });
    return executeOnce(ctx, "issue_card", issued, perAuthorization);
  },
  async retrieveCard(ctx) {
    checkMagic(ctx);
  },
  async fundCard(ctx, { amount, asset }) {
    checkMagic(ctx, amount);
    await executeOnce(ctx, "fund_card", () => ({ amount, asset }), amount);
  },
  async setCardStatus(ctx, { status, reason }) {
    checkMagic(ctx);
    await executeOnce(ctx, "set_card_status", () => ({ status }), unknownOutcomePrefix(reason));
  },
  async setCardLimits(ctx, { limits, perAuthorization }) {
    checkMagic(ctx);
    await executeOnce(ctx, "set_card_limits", () => ({ limits }), perAuthorization);
  },
  async lookup(ctx, { reference }) {
    if (!ctx.books) throw new ProviderExecutionError("the simulated card issuer keeps no books here: it cannot tell what it executed");
    const found = await ctx.books.find(reference);
    return found ? { executed: true, result: found.result } : { executed: false };
  },
  async authorize(ctx, { amount }) {
    checkMagic(ctx, amount);
  },
  async capture(ctx, { amount }) {
    checkMagic(ctx, amount);
  },
  async reverse(ctx, { amount }) {
    checkMagic(ctx, amount);
  },
};

export const cardIssuanceSimulator: ProviderAdapter = {
  slug: "simulator",
  category: "card_issuance",
  name: "Sandbox card issuing simulator",
  simulator: true,
  parseConfig: (config) => parseObjectConfig(config ?? {}, {}),
  operations: {
    list_networks: {
      description: "Card networks the simulated issuer supports.",
      kind: "read",
      requiresApproval: false,
      inputSchema: { type: "object", additionalProperties: false, properties: {} },
      async execute() {
        return { networks: ["visa", "mastercard"] };
      },
    },
  },
  capabilities: { cards: simulatedCardIssuer },
};
