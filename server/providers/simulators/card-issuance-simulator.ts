// Sandbox card issuing.
import type { ProviderAdapter } from "../provider-adapter.ts";
import { parseObjectConfig } from "./config.ts";

export const cardIssuanceSimulator: ProviderAdapter = {
  slug: "simulator",
  category: "card_issuance",
  name: "Sandbox card issuing simulator",
  simulator: true,
  parseConfig: (config) => parseObjectConfig(config ?? {}, {}),
  operations: {
    list_networks: {
      description: "Card networks the simulated issuer supports.",
      kind: "read",
      requiresApproval: false,
      inputSchema: { type: "object", additionalProperties: false, properties: {} },
      async execute() {
        return { networks: ["visa", "mastercard"] };
      },
    },
  },
};
