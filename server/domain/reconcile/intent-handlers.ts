// Every family of reconcilable provider writes, by the `family` its intents carry. A family joins with one handler
// (intent-handler.ts) and by declaring `intent` (and `onUnknown`) on its provider step (server/db/unit-of-work/provider-step.ts).
import { bankTransferCreateHandler } from "../bank-transfers/reconcile-bank-transfer.ts";
import { bankTransferCancelHandler } from "../bank-transfers/reconcile-bank-transfer-cancel.ts";
import { cardFundingHandler } from "../cards/reconcile-card-funding.ts";
import { cardIssueHandler } from "../cards/reconcile-card-issue.ts";
import { cardProgrammeCreateHandler } from "../cards/reconcile-card-programme.ts";
import { cardLimitsHandler, cardStatusHandler } from "../cards/reconcile-card-update.ts";
import { custodyTransferSubmitHandler } from "../custody/reconcile-custody-transfer.ts";
import { custodyWalletActivateHandler } from "../custody/reconcile-custody-wallet.ts";
import type { IntentHandler } from "./intent-handler.ts";

export const INTENT_HANDLERS: ReadonlyMap<string, IntentHandler> = new Map(
  [
    bankTransferCreateHandler as IntentHandler,
    bankTransferCancelHandler as IntentHandler,
    custodyTransferSubmitHandler as IntentHandler,
    custodyWalletActivateHandler as IntentHandler,
    cardFundingHandler as IntentHandler,
    cardIssueHandler as IntentHandler,
    cardProgrammeCreateHandler as IntentHandler,
    cardStatusHandler as IntentHandler,
    cardLimitsHandler as IntentHandler,
  ].map((handler) => [handler.family, handler]),
);
