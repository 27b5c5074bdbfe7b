// Sandbox bank transfers: rails per country.
import type { ProviderAdapter } from "../provider-adapter.ts";
import { parseObjectConfig } from "./config.ts";

const SANDBOX_RAILS: Record<string, string[]> = {
  US: ["ach", "wire"],
  GB: ["fps", "swift"],
  DEFAULT_EEA: ["sepa", "sepa_instant", "swift"],
  OTHER: ["swift"],
};
const EEA = new Set("AT BE BG HR CY CZ DK EE FI FR DE GR HU IE IT LV LT LU MT NL PL PT RO SK SI ES SE IS LI NO".split(" "));

export const bankTransferSimulator: ProviderAdapter = {
  slug: "simulator",
  category: "bank_transfer",
  name: "Sandbox bank transfer simulator",
  simulator: true,
  parseConfig: (config) => parseObjectConfig(config ?? {}, {}),
  operations: {
    list_rails: {
      description: "Payment rails available for a country.",
      kind: "read",
      requiresApproval: false,
      inputSchema: {
        type: "object",
        required: ["country"],
        additionalProperties: false,
        properties: { country: { type: "string", pattern: "^[A-Z]{2}$" } },
      },
      async execute({ input }) {
        const { country } = input as { country: string };
        const rails = SANDBOX_RAILS[country] ?? (EEA.has(country) ? SANDBOX_RAILS.DEFAULT_EEA : SANDBOX_RAILS.OTHER);
        return { country, rails };
      },
    },
  },
};
