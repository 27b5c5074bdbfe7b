// Sandbox chain reads: the in-process sandbox chain (server/chain/sandbox-chain.ts), for sandbox keys.
// Magic value: reading the token at 0x000000000000000000000000000000000000dEaD fails as an unreachable node would
// (503 SOURCE_NOT_AVAILABLE).
import { erc20Abi } from "viem";
import { CallFailed } from "../../chain/evm.ts";
import { clockBlock, sandboxChainFor } from "../../chain/sandbox-chain.ts";
import { ChainReadError } from "../capabilities/treasury.ts";
import type { ProviderAdapter } from "../provider-adapter.ts";
import { parseObjectConfig } from "./config.ts";
import { FAILING_ADDRESS } from "./magic-values.ts";

export const SANDBOX_CHAIN = "sandbox";

export const chainReadSimulator: ProviderAdapter = {
  slug: "simulator",
  category: "chain_read",
  name: "Sandbox chain reader",
  simulator: true,
  parseConfig: (config) => parseObjectConfig(config ?? {}, {}),
  operations: {
    get_block_number: {
      description: "Current block of the sandbox chain (one block every 12 s since 2026-01-01T00:00:00Z).",
      kind: "read",
      requiresApproval: false,
      inputSchema: { type: "object", additionalProperties: false, properties: {} },
      async execute({ now }) {
        return { chain: SANDBOX_CHAIN, blockNumber: clockBlock(now) };
      },
    },
  },
  capabilities: {
    chainReader: {
      supportsChain: (chain, _config, environment) => chain === SANDBOX_CHAIN && environment === "sandbox",
      async readErc20({ sandboxChainLog, contractAddress, holders = [] }) {
        if (contractAddress.toLowerCase() === FAILING_ADDRESS.toLowerCase()) {
          throw new ChainReadError("unavailable", "simulated chain reader failure (dead address)");
        }
        return sandboxChainFor(sandboxChainLog).read(async (view) => {
          if ((await view.getCode(contractAddress)) === "0x") throw new ChainReadError("not_a_token", `no contract at ${contractAddress}`);
          try {
            const totalSupply = await view.read<bigint>(contractAddress, erc20Abi, "totalSupply");
            const decimals = await view.read<number>(contractAddress, erc20Abi, "decimals");
            let symbol: string | null = null;
            try {
              symbol = await view.read<string>(contractAddress, erc20Abi, "symbol");
            } catch {}
            const balances: Record<string, string> = {};
            for (const holder of holders)
              balances[holder] = String(await view.read<bigint>(contractAddress, erc20Abi, "balanceOf", [holder]));
            return {
              totalSupplyMinor: totalSupply.toString(),
              decimals: Number(decimals),
              symbol,
              blockNumber: view.blockNumber,
              balances,
            };
          } catch (error) {
            if (error instanceof CallFailed)
              throw new ChainReadError("not_a_token", `${contractAddress} is not an ERC-20 token: ${error.message}`);
            throw error;
          }
        });
      },
    },
  },
};
