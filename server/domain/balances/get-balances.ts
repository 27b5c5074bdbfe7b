import type { AuthContext } from "../../context.ts";
import type { Db } from "../../db/open-database.ts";
import type { components } from "../../generated/openapi.ts";
import { USD_DECIMALS } from "../money/assets.ts";
import { formatMinor } from "../money/minor-units.ts";
import { assetBalances } from "../wallets/wallet-dto.ts";

/** Per-asset totals across the organization's sandbox wallets, summed in the database. */
export async function getBalances({
  prisma,
  auth,
}: {
  prisma: Db;
  auth: AuthContext;
}): Promise<components["schemas"]["AggregatedBalances"]> {
  const where = { organizationId: auth.organizationId, environment: auth.environment };
  const [walletCount, sums] = await Promise.all([
    prisma.wallet.count({ where }),
    prisma.walletAsset.groupBy({ by: ["asset"], where: { wallet: where }, _sum: { balanceMinor: true } }),
  ]);
  const minor = new Map(sums.map((s) => [s.asset, BigInt(s._sum.balanceMinor?.toFixed(0) ?? "0")]));
  const { assets, totalUsdMinor } = assetBalances(minor);
  return { walletCount, assets, totalUSD: formatMinor(totalUsdMinor, USD_DECIMALS) };
}
