// Differences the diff library calls breaking that a reviewed change declares a correction: the wire is unchanged, the
// contract only says more precisely what it always carried, and the diff library cannot follow the new form (a union
// discriminated by a tag, the old shape being each branch's envelope). Each entry holds only against the release it names
// (`released` = that spec's `info.version`): once the corrected spec is released, the differences are gone and the entry
// is dead weight — delete it then. Each one has its reason in CHANGELOG.md.

export interface CompatCorrection {
  /** `info.version` of the released spec the entry is checked against. */
  released: string;
  /** Operations (`GET /api/v2/agent/events`) whose flagged differences the entry allows. */
  where: readonly string[];
  reason: string;
}

export const corrections: readonly CompatCorrection[] = [
  {
    released: "0.3.0",
    where: ["GET /api/v2/agent/events", "GET /api/v2/agent/events/{eventId}", "POST /api/v2/agent/webhook-endpoints/{endpointId}/test"],
    reason:
      "Event became the WebhookEvent union discriminated by `type` (issue 30): each branch is the same envelope with `type` " +
      "fixed and `data` the resource the event always carried (as its webhooks entry documented); no field is removed.",
  },
  {
    released: "0.3.0",
    where: [
      "POST /api/v2/agent/payments/bank-transfer",
      "POST /api/v2/agent/payments/bank-transfer/status",
      "POST /api/v2/agent/payments/bank-transfer/cancel",
    ],
    reason:
      "BankTransferFailureReason.code gains `not_executed` and `outcome_unconfirmed` (issue 26): only the new reconciler " +
      "writes them, on a transfer whose creation's bank answer was lost or whose request died between its commits — a " +
      "transfer 0.3.0 deleted (502) or left `pending` for good. No value is removed; a client that switches on the code " +
      "meets them only on that new path (documented with the 202 answer).",
  },
  {
    released: "0.3.0",
    where: ["POST /api/v2/agent/custody/transfers", "POST /api/v2/agent/custody/transfers/status"],
    reason:
      "CustodyTransferFailureReason.code gains `not_executed` and `outcome_unconfirmed` (issue 26): only the new reconciler " +
      "writes them, on a transfer whose submission's answer was lost or whose request died between its commits — a " +
      "transfer 0.3.0 left `approved` (502). No value is removed; a client meets them only on that new path.",
  },
  {
    released: "0.3.0",
    where: ["POST /api/v2/agent/custody/wallets"],
    reason:
      "CustodyWalletStatus gains `processing` and `failed`, and CustodyWallet the field `failureReason` (issue 26): a wallet " +
      "is `processing` only after an activation whose custodian answer was lost (answered with the new 202), and `failed` " +
      "only when the reconciler found it never created or could not confirm it — a wallet 0.3.0 left `pending_approval` " +
      "(502). No value is removed; a client meets them only on that new path.",
  },
  {
    released: "0.3.0",
    where: [
      "GET /api/v2/agent/cards/{cardId}/transactions",
      "POST /api/v2/agent/cards/{cardId}/test-helpers/authorizations",
      "POST /api/v2/agent/cards/{cardId}/test-helpers/authorizations/{authorizationId}/capture",
      "POST /api/v2/agent/cards/{cardId}/test-helpers/authorizations/{authorizationId}/reverse",
    ],
    reason:
      "CardTransaction.status gains `failed` (issue 26): only the new reconciler writes it, on a funding whose card issuer " +
      "answer was lost and that the issuer never executed (or could not confirm) — a funding 0.3.0 deleted (502). No value " +
      "is removed; a client meets it only on that new path (documented with fundCard's 202); an authorization's own " +
      "transactions are never `failed`.",
  },
  {
    released: "0.3.0",
    where: [
      "POST /api/v2/agent/webhook-endpoints",
      "GET /api/v2/agent/webhook-endpoints",
      "GET /api/v2/agent/webhook-endpoints/{endpointId}",
      "PATCH /api/v2/agent/webhook-endpoints/{endpointId}",
      "POST /api/v2/agent/webhook-endpoints/{endpointId}/rotate-secret",
      "GET /api/v2/agent/webhook-endpoints/{endpointId}/deliveries",
      "POST /api/v2/agent/webhook-endpoints/{endpointId}/deliveries/{deliveryId}/retry",
    ],
    reason:
      "Two new event types, `custody_wallet.processing` and `custody_wallet.failed` (issue 26): the EventType enum an " +
      "endpoint's `enabledEvents` and a delivery's `eventType` echo grows by them, and `enabledEvents` takes up to 54 " +
      "entries. New event types are not breaking (docs/compatibility.md): an endpoint receives them only when it " +
      "subscribed to them or to `*`.",
  },
  {
    released: "0.3.0",
    where: [
      "POST /api/v2/agent/cards/programmes",
      "POST /api/v2/agent/cards/issue",
      "GET /api/v2/agent/cards/{cardId}",
      "POST /api/v2/agent/cards/{cardId}/fund",
      "POST /api/v2/agent/cards/{cardId}/freeze",
      "POST /api/v2/agent/cards/{cardId}/unfreeze",
      "POST /api/v2/agent/cards/{cardId}/deactivate",
      "POST /api/v2/agent/cards/{cardId}/limits",
    ],
    reason:
      "CardProgramme.status and Card.status gain `pending` and `failed`, and a card's `last4`, `expMonth` and `expYear` " +
      "are null while it is not issued (issue 26): only a programme or card whose card issuer answer was lost, or whose " +
      "request died between its commits — one 0.3.0 deleted (502) or left invisible for good — is ever in those states, " +
      "and no write reaches a card in them (404), so fund, freeze, unfreeze, deactivate and limits never answer them.",
  },
];
