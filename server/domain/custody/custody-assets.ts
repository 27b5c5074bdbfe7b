// Chains and assets of custody wallets: which chain carries which asset, decimals, address formats.
import { isValidAddress } from "../chains/addresses.ts";

export const CUSTODY_CHAINS = ["ethereum", "polygon", "base", "arbitrum", "optimism", "avalanche", "solana"] as const;
export type CustodyChain = (typeof CUSTODY_CHAINS)[number];

export const ASSET_DECIMALS: Readonly<Record<string, number>> = {
  USDC: 6,
  USDT: 6,
  EURC: 6,
  PYUSD: 6,
  DAI: 18,
  ETH: 18,
  POL: 18,
  AVAX: 18,
  SOL: 9,
};

const ALL = [...CUSTODY_CHAINS];
/** The chains that carry each asset (documented on `CustodyAsset`). */
export const ASSET_CHAINS: Readonly<Record<string, readonly string[]>> = {
  USDC: ALL,
  USDT: ALL,
  DAI: ALL.filter((c) => c !== "solana"),
  EURC: ["ethereum", "base", "avalanche", "solana"],
  PYUSD: ["ethereum", "arbitrum", "solana"],
  ETH: ["ethereum", "base", "arbitrum", "optimism"],
  POL: ["polygon"],
  AVAX: ["avalanche"],
  SOL: ["solana"],
};

export const NATIVE_ASSET: Readonly<Record<string, string>> = {
  ethereum: "ETH",
  base: "ETH",
  arbitrum: "ETH",
  optimism: "ETH",
  polygon: "POL",
  avalanche: "AVAX",
  solana: "SOL",
};

export const chainCarries = (chain: string, asset: string) => ASSET_CHAINS[asset]?.includes(chain) ?? false;

export const isEvmChain = (chain: string) => chain !== "solana";

/** EVM chains: 0x + 40 hex (mixed case must match EIP-55); solana: base58 of 32 bytes. */
export function isValidChainAddress(chain: string, address: string): boolean {
  return isValidAddress(isEvmChain(chain) ? "ethereum" : "solana", address);
}

/** Minor units as a decimal string with exactly `decimals` fraction digits ("2500.000000"). */
export function minorToAmount(minor: bigint, decimals: number): string {
  if (decimals === 0) return minor.toString();
  const digits = minor.toString().padStart(decimals + 1, "0");
  return `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
}
