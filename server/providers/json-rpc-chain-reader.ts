// A live chain reader (chain_read, providerSlug "json_rpc"): ERC-20 reads over Ethereum JSON-RPC with viem, one node URL
// per chain. Connection config: `{ "rpcUrls": { "<chain>": "https://…" }, "timeoutMs"?: 1–30000 (default 5000) }`.
// Reads are pinned to one block (the node's latest when the read starts). No retries: an unreachable, failing or slow
// node is reported as unavailable at once (→ 503 SOURCE_NOT_AVAILABLE).
import {
  BaseError,
  ContractFunctionRevertedError,
  ContractFunctionZeroDataError,
  createPublicClient,
  erc20Abi,
  http,
  type PublicClient,
} from "viem";
import { ChainReadError } from "./capabilities/treasury.ts";
import type { ProviderAdapter } from "./provider-adapter.ts";
import { parseObjectConfig } from "./simulators/config.ts";

const DEFAULT_TIMEOUT_MS = 5_000;
const CHAIN = /^[a-z][a-z0-9_]{1,31}$/;

const isRpcUrls = (v: unknown) =>
  typeof v === "object" &&
  v !== null &&
  !Array.isArray(v) &&
  Object.entries(v).every(([chain, url]) => CHAIN.test(chain) && typeof url === "string" && /^https?:\/\/\S+$/.test(url));
const isTimeout = (v: unknown) => Number.isInteger(v) && (v as number) >= 1 && (v as number) <= 30_000;

const rpcUrlOf = (config: Record<string, unknown>, chain: string): string | undefined =>
  (config.rpcUrls as Record<string, string> | undefined)?.[chain];

const clients = new Map<string, PublicClient>();

function clientFor(url: string, timeoutMs: number): PublicClient {
  const key = `${timeoutMs}|${url}`;
  let client = clients.get(key);
  if (!client) {
    client = createPublicClient({ transport: http(url, { timeout: timeoutMs, retryCount: 0 }) }) as PublicClient;
    clients.set(key, client);
  }
  return client;
}

function classify(error: unknown, what: string): ChainReadError {
  if (error instanceof ChainReadError) return error;
  if (error instanceof BaseError) {
    const contractFault = error.walk((e) => e instanceof ContractFunctionZeroDataError || e instanceof ContractFunctionRevertedError);
    if (contractFault) return new ChainReadError("not_a_token", `${what}: ${error.shortMessage}`);
    return new ChainReadError("unavailable", `the node failed: ${error.shortMessage}`);
  }
  return new ChainReadError("unavailable", `the node failed: ${(error as Error)?.message ?? String(error)}`);
}

export const jsonRpcChainReader: ProviderAdapter = {
  slug: "json_rpc",
  category: "chain_read",
  name: "JSON-RPC chain reader",
  simulator: false,
  parseConfig: (config) => parseObjectConfig(config ?? {}, { rpcUrls: isRpcUrls, timeoutMs: isTimeout }),
  operations: {},
  capabilities: {
    chainReader: {
      supportsChain: (chain, config) => typeof rpcUrlOf(config, chain) === "string",
      async readErc20({ config, chain, contractAddress, holders = [] }) {
        const url = rpcUrlOf(config, chain);
        if (!url) throw new ChainReadError("unavailable", `no RPC URL configured for ${chain}`);
        const client = clientFor(url, (config.timeoutMs as number | undefined) ?? DEFAULT_TIMEOUT_MS);
        const address = contractAddress as `0x${string}`;
        let blockNumber: bigint;
        try {
          blockNumber = await client.getBlockNumber({ cacheTime: 0 });
          const code = await client.getCode({ address, blockNumber });
          if (!code || code === "0x") throw new ChainReadError("not_a_token", `no contract at ${contractAddress} on ${chain}`);
        } catch (error) {
          throw classify(error, `${contractAddress} is not an ERC-20 token`);
        }
        const read = async <T>(functionName: "totalSupply" | "decimals" | "symbol" | "balanceOf", args?: readonly [`0x${string}`]) => {
          try {
            return (await client.readContract({ address, abi: erc20Abi, functionName, args, blockNumber } as never)) as T;
          } catch (error) {
            throw classify(error, `${contractAddress} is not an ERC-20 token (${functionName}() failed)`);
          }
        };
        const totalSupply = await read<bigint>("totalSupply");
        const decimals = await read<number>("decimals");
        let symbol: string | null = null;
        try {
          symbol = await read<string>("symbol");
        } catch (error) {
          if ((error as ChainReadError).kind === "unavailable") throw error;
        }
        const balances: Record<string, string> = {};
        for (const holder of holders) balances[holder] = String(await read<bigint>("balanceOf", [holder as `0x${string}`]));
        return { totalSupplyMinor: totalSupply.toString(), decimals: Number(decimals), symbol, blockNumber: Number(blockNumber), balances };
      },
    },
  },
};
