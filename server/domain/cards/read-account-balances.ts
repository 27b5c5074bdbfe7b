import type { AuthContext } from "../../context.ts";
import type { Queryable } from "../../db/kysely.ts";
import { type Owner, ownedBy } from "../../db/owned-by.ts";
import { numericToMinor } from "../../lib/money/minor-units.ts";

/** Balances derived from the ledger: per account, the sum of its credits minus the sum of its debits (minor units;
 * 0 for an account without entries). Inside a write, call it after locking the card so no other posting interleaves. */
export async function readAccountBalances(db: Queryable, auth: Owner, accounts: string[]): Promise<Map<string, bigint>> {
  const rows = await db
    .selectFrom("CardLedgerEntry")
    .where(ownedBy(auth))
    .where("account", "in", accounts)
    .groupBy("account")
    .select((eb) => [
      "account",
      eb
        .cast<string>(
          eb.fn.sum(
            eb
              .case()
              .when("direction", "=", "credit")
              .then(eb.ref("amountMinor"))
              .else(eb.neg(eb.ref("amountMinor")))
              .end(),
          ),
          "text",
        )
        .as("balance"),
    ])
    .execute();
  const balances = new Map(accounts.map((account) => [account, 0n]));
  for (const row of rows) balances.set(row.account, numericToMinor(row.balance, 0));
  return balances;
}

/**
 * What an account can spend (an authorization's funds, a funding's source): its balance without the credits of
 * postings whose issuer call has not been confirmed yet (fundings and releases written in a first transaction, their
 * CardTransaction still `pending`). Such a posting is deleted again if the issuer refuses it, so spending it first
 * could leave the account negative. Call it under the lock that serializes the account's debits.
 */
export async function readSpendableBalance(db: Queryable, auth: AuthContext, account: string): Promise<bigint> {
  const row = await db
    .selectFrom("CardLedgerEntry as e")
    .leftJoin("CardTransaction as t", (join) =>
      join.onRef("t.id", "=", "e.journalId").on("t.status", "=", "pending").on("t.type", "in", ["funding", "reversal"]),
    )
    .where(ownedBy(auth, "e"))
    .where("e.account", "=", account)
    .select((eb) =>
      eb
        .cast<string | null>(
          eb.fn.sum(
            eb
              .case()
              .when("e.direction", "=", "debit")
              .then(eb.neg(eb.ref("e.amountMinor")))
              .when("t.id", "is", null)
              .then(eb.ref("e.amountMinor"))
              .else(eb.lit(0))
              .end(),
          ),
          "text",
        )
        .as("balance"),
    )
    .executeTakeFirst();
  return row?.balance ? numericToMinor(row.balance, 0) : 0n;
}
