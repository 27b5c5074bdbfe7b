import type { AuthContext } from "../../context.ts";
import type { Queryable } from "../../db/kysely.ts";
import type { components } from "../../generated/openapi.ts";
import { formatMinor } from "../../lib/money/minor-units.ts";
import { USD_DECIMALS } from "../money/assets.ts";
import { findWallet } from "./get-wallet.ts";
import { assetBalances, minorByAsset, type WalletDto } from "./wallet-dto.ts";

export async function getWalletBalance(
  db: Queryable,
  {
    auth,
    id,
  }: {
    auth: AuthContext;
    id: string;
  },
): Promise<components["schemas"]["WalletBalance"]> {
  const wallet = await findWallet(db, auth, id);
  const { assets, totalUsdMinor } = assetBalances(minorByAsset(wallet));
  return { walletId: wallet.id, chain: wallet.chain as WalletDto["chain"], assets, totalUSD: formatMinor(totalUsdMinor, USD_DECIMALS) };
}
