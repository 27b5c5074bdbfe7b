// The card issuing provider API the card endpoints use (`ProviderCapabilities.cards`), and the failures an issuer answers.
// The sandbox card issuing simulator implements it; a live issuer adapter would too.
import type { SimulatedCardIssuerStore } from "./simulated-card-issuer-store.ts";

/** Failures a card issuer can answer; the simulator produces them on its documented magic values. */
export const CARD_ISSUER_FAILURES = [
  "PROVIDER_AUTHORIZATION_DENIED",
  "CARD_REQUEST_REJECTED",
  "PROVIDER_RATE_LIMITED",
  "CARD_OPERATION_NOT_SUPPORTED",
  "PROVIDER_EXECUTION_FAILED",
] as const;
export type CardIssuerFailure = (typeof CARD_ISSUER_FAILURES)[number];

/** The issuer answered with a failure other than "could not execute" (that one is ProviderExecutionError → 502). */
export class CardIssuerError extends Error {
  readonly code: Exclude<CardIssuerFailure, "PROVIDER_EXECUTION_FAILED">;

  constructor(code: Exclude<CardIssuerFailure, "PROVIDER_EXECUTION_FAILED">, message: string) {
    super(message);
    this.code = code;
    this.name = "CardIssuerError";
  }
}

export interface CardIssuerContext {
  /** The connection's config (validated by the adapter's `parseConfig`). */
  config: Record<string, unknown>;
  now: Date;
  /** Sandbox `Sandbox-Simulate-Error` header: the simulator answers this failure (live issuers ignore it). */
  simulate?: CardIssuerFailure;
  /** The id of the intent a write acts on (the programme, card, card transaction or authorization written before the
   * call; the card and the request for a status or limits change): a live issuer forwards it as its idempotency key,
   * so a repeated call has one effect. Absent on reads. */
  idempotencyKey?: string;
  /** The sandbox simulator's books (a live issuer ignores them): given, the simulator records each write under its
   * `idempotencyKey`, so a key never executes twice and `lookup` answers whether it executed (issue 26). */
  books?: SimulatedCardIssuerStore;
}

/** What became of a write sent with an idempotency key: executed (with what the issuer answered), or never. */
export type CardIssuerLookup = { executed: true; result: Record<string, unknown> } | { executed: false };

export interface IssuedCard {
  /** The issuer's reference for the card. Never a card number. */
  reference: string;
  last4: string;
  expMonth: number;
  expYear: number;
}

export interface CardIssuerApi {
  createProgramme(
    ctx: CardIssuerContext,
    input: { programmeId: string; name: string; network: string; binSponsor: string; jurisdictions: string[]; fundingAsset: string },
  ): Promise<{ reference: string }>;
  issueCard(
    ctx: CardIssuerContext,
    // `cardholderName` is null for a card issued with no cardholder.
    // `perAuthorization`: the card's per-authorization limit, if any (the simulator's unknown-outcome magic amounts).
    input: { cardId: string; programmeReference: string; network: string; cardholderName: string | null; perAuthorization?: string },
  ): Promise<IssuedCard>;
  /** Reads of a card and of its transactions. */
  retrieveCard(ctx: CardIssuerContext, input: { reference: string }): Promise<void>;
  fundCard(ctx: CardIssuerContext, input: { reference: string; amount: string; asset: string }): Promise<void>;
  // `reason` (the status change's) and `perAuthorization` (the new limits'): the simulator's unknown-outcome magic values.
  setCardStatus(
    ctx: CardIssuerContext,
    input: { reference: string; status: "active" | "frozen" | "deactivated"; reason?: string | null },
  ): Promise<void>;
  setCardLimits(ctx: CardIssuerContext, input: { reference: string; limits: object; perAuthorization?: string }): Promise<void>;
  /** What became of the write sent with `reference` as its idempotency key (the reconciler asks: issue 26). Throws when
   * the issuer cannot tell. */
  lookup(ctx: CardIssuerContext, input: { reference: string }): Promise<CardIssuerLookup>;
  /** Sandbox test helpers: the simulated network's authorization, capture and reversal. */
  authorize(ctx: CardIssuerContext, input: { reference: string; amount: string; merchantCategory: string }): Promise<void>;
  capture(ctx: CardIssuerContext, input: { reference: string; authorizationId: string; amount?: string }): Promise<void>;
  reverse(ctx: CardIssuerContext, input: { reference: string; authorizationId: string; amount?: string }): Promise<void>;
}
