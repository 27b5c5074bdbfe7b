// Chains and assets of custody wallets: which chain carries which asset, address formats, amounts (decimals and native
// assets: lib/chains/chain-assets.ts).
import { isEvmChain } from "../../lib/chains/chain-assets.ts";
import { isValidAddress } from "../chains/addresses.ts";

export const CUSTODY_CHAINS = ["ethereum", "polygon", "base", "arbitrum", "optimism", "avalanche", "solana"] as const;
export type CustodyChain = (typeof CUSTODY_CHAINS)[number];

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

export const chainCarries = (chain: string, asset: string) => ASSET_CHAINS[asset]?.includes(chain) ?? false;

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
