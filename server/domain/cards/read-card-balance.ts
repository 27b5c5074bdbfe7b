import type { Queryable } from "../../db/kysely.ts";
import type { Owner } from "../../db/owned-by.ts";
import { cardAvailableAccount, cardPendingAccount } from "./card-accounts.ts";
import { readAccountBalances } from "./read-account-balances.ts";

export interface CardBalanceMinor {
  availableMinor: bigint;
  pendingMinor: bigint;
}

/** A card's balance, derived from its ledger accounts (never a stored counter). */
export async function readCardBalance(db: Queryable, auth: Owner, cardId: string): Promise<CardBalanceMinor> {
  const available = cardAvailableAccount(cardId);
  const pending = cardPendingAccount(cardId);
  const balances = await readAccountBalances(db, auth, [available, pending]);
  return { availableMinor: balances.get(available) ?? 0n, pendingMinor: balances.get(pending) ?? 0n };
}
