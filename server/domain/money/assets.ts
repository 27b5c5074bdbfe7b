// The stablecoins of the sandbox store and their on-chain precision.

export const STABLECOINS = ["USDC", "USDT", "DAI"] as const;
export type Stablecoin = (typeof STABLECOINS)[number];

export const ASSET_DECIMALS: Record<Stablecoin, number> = { USDC: 6, USDT: 6, DAI: 18 };

/** Sandbox test funds credited to every new wallet, per asset (whole units). */
export const SANDBOX_TEST_FUNDS_UNITS = 1000n;

/** USD values are kept at 18 decimal places internally; every sandbox stablecoin is priced at 1.00 USD. */
export const USD_DECIMALS = 18;

export function toUsdMinor(asset: Stablecoin, minor: bigint): bigint {
  return minor * 10n ** BigInt(USD_DECIMALS - ASSET_DECIMALS[asset]);
}
