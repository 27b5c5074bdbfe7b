import type { AuthContext } from "../../context.ts";
import type { Db } from "../../db/open-database.ts";
import { Prisma } from "../../generated/prisma/client.ts";
import type { Tx } from "../../idempotency/idempotency-store.ts";

/** Balances derived from the ledger: per account, the sum of its credits minus the sum of its debits (minor units;
 * 0 for an account without entries). Inside a write, call it after locking the card so no other posting interleaves. */
export async function readAccountBalances(db: Tx | Db, auth: AuthContext, accounts: string[]): Promise<Map<string, bigint>> {
  const rows = await db.$queryRaw<Array<{ account: string; balance: string }>>`
    SELECT "account",
           SUM(CASE WHEN "direction" = 'credit' THEN "amountMinor" ELSE -"amountMinor" END)::text AS "balance"
      FROM "CardLedgerEntry"
     WHERE "organizationId" = ${auth.organizationId}
       AND "environment" = ${auth.environment}
       AND "account" IN (${Prisma.join(accounts)})
     GROUP BY "account"`;
  const balances = new Map(accounts.map((account) => [account, 0n]));
  for (const row of rows) balances.set(row.account, BigInt(row.balance));
  return balances;
}
