// The card writes that are reconcilable (issue 26): the `family` of each one's provider intent (server/db/provider-
// intents.ts; its handler in server/domain/reconcile/intent-handlers.ts), and the reasons a write the reconciler could not
// find executed ends with.
import type { components } from "../../generated/openapi.ts";

/** fundCard: the intent's resource and reference are the `funding` CardTransaction's id. */
export const CARD_FUND = "card.fund";

type FundingFailure = components["schemas"]["CardFundingFailureReason"];

export const FUNDING_NOT_EXECUTED: FundingFailure = {
  code: "not_executed",
  message: "The card issuer has no record of this funding: it never executed it, and the posting is written back.",
};

export const fundingUnconfirmed = (attempts: number, lastError: string): FundingFailure => ({
  code: "outcome_unconfirmed",
  message:
    `The card issuer could not confirm whether it funded the card after ${attempts} attempts (last: ${lastError}); the posting is written back. Check with the issuer before funding again.`.slice(
      0,
      600,
    ),
});

/** issueCard: the intent's resource and reference are the card's id. */
export const CARD_ISSUE = "card.issue";

/** A `failed` card's `statusReason` (or a `failed` programme's `failureReason`): why the write failed, the code first. */
export const notExecuted = (what: string) => `not_executed: the card issuer has no record of this ${what}; it never executed it.`;

export const unconfirmed = (what: string, attempts: number, lastError: string): string =>
  `outcome_unconfirmed: the card issuer could not confirm whether it executed this ${what} after ${attempts} attempts (last: ${lastError}).`.slice(
    0,
    500,
  );

/** createCardProgramme: the intent's resource and reference are the programme's id. */
export const CARD_PROGRAMME_CREATE = "card_programme.create";

/** freezeCard, unfreezeCard, deactivateCard: the intent's resource is the card, its reference `<card id>:<request id>`
 * (the issuer call's idempotency key); what the change replaced is the card's `pendingUpdate`. */
export const CARD_STATUS = "card.status";

/** updateCardLimits: as CARD_STATUS. */
export const CARD_LIMITS = "card.limits";
