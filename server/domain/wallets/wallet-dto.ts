import type { Selectable } from "kysely";
import type { DB } from "../../db/kysely.ts";
import type { components } from "../../generated/openapi.ts";
import { formatMinor, numericToMinor } from "../../lib/money/minor-units.ts";
import { ASSET_DECIMALS, STABLECOINS, type Stablecoin, toUsdMinor, USD_DECIMALS } from "../money/assets.ts";

export type WalletDto = components["schemas"]["Wallet"];
export type AssetBalanceDto = components["schemas"]["AssetBalance"];

/** Per-asset balances in the fixed order USDC, USDT, DAI, from minor units per asset. */
export function assetBalances(minorByAsset: Map<string, bigint>): { assets: AssetBalanceDto[]; totalUsdMinor: bigint } {
  let totalUsdMinor = 0n;
  const assets = STABLECOINS.map((asset: Stablecoin) => {
    const minor = minorByAsset.get(asset) ?? 0n;
    const usd = toUsdMinor(asset, minor);
    totalUsdMinor += usd;
    return {
      asset,
      balance: formatMinor(minor, ASSET_DECIMALS[asset]),
      decimals: ASSET_DECIMALS[asset],
      usdValue: formatMinor(usd, USD_DECIMALS),
    };
  });
  return { assets, totalUsdMinor };
}

/** A wallet with its balances in minor units (numeric text). */
export type WalletWithAssets = Pick<Selectable<DB["Wallet"]>, "id" | "address" | "chain" | "label" | "createdAt"> & {
  assets: { asset: string; balanceMinor: string }[];
};

export function minorByAsset(wallet: WalletWithAssets): Map<string, bigint> {
  return new Map(wallet.assets.map((a) => [a.asset, numericToMinor(a.balanceMinor, 0)]));
}

export function toWalletDto(wallet: WalletWithAssets): WalletDto {
  const minor = minorByAsset(wallet);
  return {
    id: wallet.id,
    address: wallet.address,
    chain: wallet.chain as WalletDto["chain"],
    label: wallet.label,
    balance: formatMinor(assetBalances(minor).totalUsdMinor, USD_DECIMALS),
    createdAt: new Date(wallet.createdAt).toISOString(),
  };
}
