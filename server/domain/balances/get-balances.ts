import type { AuthContext } from "../../context.ts";
import type { Queryable } from "../../db/kysely.ts";
import { ownedBy } from "../../db/owned-by.ts";
import type { components } from "../../generated/openapi.ts";
import { formatMinor, numericToMinor } from "../../lib/money/minor-units.ts";
import { USD_DECIMALS } from "../money/assets.ts";
import { assetBalances } from "../wallets/wallet-dto.ts";

/** Per-asset totals across the organization's sandbox wallets, summed in the database. */
export async function getBalances(
  db: Queryable,
  {
    auth,
  }: {
    auth: AuthContext;
  },
): Promise<components["schemas"]["AggregatedBalances"]> {
  const [counted, sums] = await Promise.all([
    db
      .selectFrom("Wallet")
      .where(ownedBy(auth))
      .select((eb) => eb.fn.countAll<string>().as("count"))
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("WalletAsset as a")
      .innerJoin("Wallet as w", "w.id", "a.walletId")
      .where(ownedBy(auth, "w"))
      .groupBy("a.asset")
      .select((eb) => ["a.asset", eb.cast<string>(eb.fn.sum("a.balanceMinor"), "text").as("total")])
      .execute(),
  ]);
  const minor = new Map(sums.map((s) => [s.asset, numericToMinor(s.total, 0)]));
  const { assets, totalUsdMinor } = assetBalances(minor);
  return { walletCount: Number(counted.count), assets, totalUSD: formatMinor(totalUsdMinor, USD_DECIMALS) };
}
