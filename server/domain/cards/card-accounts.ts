// Account names of the double-entry card ledger (scoped to an organization and environment by the entries' columns).
// Every account's balance is the sum of its credits minus the sum of its debits.

/** A card's spendable funds. */
export const cardAvailableAccount = (cardId: string) => `card:${cardId}:available`;
/** Holds of a card's pending authorizations. */
export const cardPendingAccount = (cardId: string) => `card:${cardId}:pending`;
/** A programme's funding account: `fund` and just-in-time authorizations draw on it. */
export const programmeFundingAccount = (programmeId: string) => `programme:${programmeId}:funding`;
/** Where captures settle. */
export const MERCHANT_SETTLEMENT_ACCOUNT = "merchant_settlement";
/** The counterpart of the sandbox test funds credited to every new programme's funding account. */
export const SANDBOX_TEST_FUNDS_ACCOUNT = "sandbox_test_funds";
