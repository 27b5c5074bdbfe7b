// Sandbox chain reads.
import type { ProviderAdapter } from "../provider-adapter.ts";
import { parseObjectConfig } from "./config.ts";

const GENESIS = Date.UTC(2026, 0, 1);

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
        return { chain: "sandbox", blockNumber: Math.floor((now.getTime() - GENESIS) / 12_000) };
      },
    },
  },
};
