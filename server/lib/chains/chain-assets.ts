// Assets on chains, as the domain and the sandbox custody simulator both need them: decimals of each asset, the native
// asset of each chain, and which chains are EVM chains.

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

export const NATIVE_ASSET: Readonly<Record<string, string>> = {
  ethereum: "ETH",
  base: "ETH",
  arbitrum: "ETH",
  optimism: "ETH",
  polygon: "POL",
  avalanche: "AVAX",
  solana: "SOL",
};

export const isEvmChain = (chain: string) => chain !== "solana";
