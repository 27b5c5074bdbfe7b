// Sandbox reserve source (token_issuance).
import type { ProviderAdapter } from "../provider-adapter.ts";
import { isDecimalString, parseObjectConfig } from "./config.ts";

export const tokenIssuanceSimulator: ProviderAdapter = {
  slug: "simulator",
  category: "token_issuance",
  name: "Sandbox reserve source",
  simulator: true,
  // `reserveRatio` (decimal string, e.g. "1.02") is what the simulated reserve source reports.
  parseConfig: (config) =>
    parseObjectConfig(config ?? {}, { reserveRatio: isDecimalString, issuers: (v) => Array.isArray(v), networks: (v) => Array.isArray(v) }),
  operations: {
    get_reserve_ratio: {
      description: 'Reserve ratio reported by the reserve source (connection config `reserveRatio`, default "1.00").',
      kind: "read",
      requiresApproval: false,
      inputSchema: { type: "object", additionalProperties: false, properties: {} },
      async execute({ config }) {
        return { reserveRatio: (config.reserveRatio as string | undefined) ?? "1.00" };
      },
    },
  },
};
