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

/** A `failed` card's `statusReason`: why its issuing failed, the code first (the Card schema documents both). */
export const ISSUE_NOT_EXECUTED = "not_executed: the card issuer has no record of this card; it never issued it.";

export const issueUnconfirmed = (attempts: number, lastError: string): string =>
  `outcome_unconfirmed: the card issuer could not confirm whether it issued this card after ${attempts} attempts (last: ${lastError}).`.slice(
    0,
    500,
  );
