import type { AuthContext } from "../../context.ts";
import type { Db } from "../../db/open-database.ts";
import type { components } from "../../generated/openapi.ts";
import { USD_DECIMALS } from "../money/assets.ts";
import { formatMinor } from "../money/minor-units.ts";
import { findWallet } from "./get-wallet.ts";
import { assetBalances, type WalletDto } from "./wallet-dto.ts";

export async function getWalletBalance({
  prisma,
  auth,
  id,
}: {
  prisma: Db;
  auth: AuthContext;
  id: string;
}): Promise<components["schemas"]["WalletBalance"]> {
  const wallet = await findWallet(prisma, auth, id);
  const { assets, totalUsdMinor } = assetBalances(new Map(wallet.assets.map((a) => [a.asset, BigInt(a.balanceMinor.toFixed(0))])));
  return { walletId: wallet.id, chain: wallet.chain as WalletDto["chain"], assets, totalUSD: formatMinor(totalUsdMinor, USD_DECIMALS) };
}
