// Sandbox card issuing: the only card_issuance adapter. Deterministic; stateless (the card records live in Coinplane's
// database); never produces a card number or CVC. Magic values (documented in the card operations of the spec):
// amounts 403.03 / 429.29 / 501.01 / 666.66 on fund, authorization, capture and reversal, and the
// `Sandbox-Simulate-Error` header on every card endpoint.
import { createHash } from "node:crypto";
import { type CardIssuerApi, type CardIssuerContext, CardIssuerError, type CardIssuerFailure } from "../capabilities/card-issuing.ts";
import { type ProviderAdapter, ProviderExecutionError } from "../provider-adapter.ts";
import { parseObjectConfig } from "./config.ts";
import { FAILING_AMOUNT } from "./magic-values.ts";

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

const digest = (text: string) => createHash("sha256").update(text).digest();

export const simulatedCardIssuer: CardIssuerApi = {
  async createProgramme(ctx, { programmeId }) {
    checkMagic(ctx);
    return { reference: `sim_prg_${digest(programmeId).toString("hex").slice(0, 16)}` };
  },
  async issueCard(ctx, { cardId }) {
    checkMagic(ctx);
    const hash = digest(cardId);
    return {
      reference: `sim_card_${hash.toString("hex").slice(0, 16)}`,
      last4: String(hash.readUInt32BE(0) % 10_000).padStart(4, "0"),
      expMonth: (hash.readUInt8(4) % 12) + 1,
      expYear: ctx.now.getUTCFullYear() + SIMULATED_CARD_VALIDITY_YEARS,
    };
  },
  async retrieveCard(ctx) {
    checkMagic(ctx);
  },
  async fundCard(ctx, { amount }) {
    checkMagic(ctx, amount);
  },
  async setCardStatus(ctx) {
    checkMagic(ctx);
  },
  async setCardLimits(ctx) {
    checkMagic(ctx);
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
