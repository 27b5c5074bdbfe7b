// Sandbox reserve source (token_issuance). It reports what its connection config says, nothing else:
// `reserveRatio` (decimal string, default "1.00"), and, only when configured, `circulatingSupplyMinor` (digit string)
// and `pegPrice` (decimal string).
import type { ProviderAdapter } from "../provider-adapter.ts";
import { isDecimalString, parseObjectConfig } from "./config.ts";

const isDigits = (v: unknown) => typeof v === "string" && /^(0|[1-9][0-9]{0,37})$/.test(v);

export const tokenIssuanceSimulator: ProviderAdapter = {
  slug: "simulator",
  category: "token_issuance",
  name: "Sandbox reserve source",
  simulator: true,
  parseConfig: (config) =>
    parseObjectConfig(config ?? {}, {
      reserveRatio: isDecimalString,
      circulatingSupplyMinor: isDigits,
      pegPrice: isDecimalString,
      issuers: (v) => Array.isArray(v),
      networks: (v) => Array.isArray(v),
    }),
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
  capabilities: {
    reserveSource: {
      async report({ config }) {
        return {
          reserveRatio: (config.reserveRatio as string | undefined) ?? "1.00",
          circulatingSupplyMinor: (config.circulatingSupplyMinor as string | undefined) ?? null,
          pegPrice: (config.pegPrice as string | undefined) ?? null,
        };
      },
    },
  },
};
