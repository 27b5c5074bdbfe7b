// The sandbox simulators of the remaining categories. Each offers read operations over deterministic sandbox data.
import { normalizeAddress } from "../../domain/compliance/normalize.ts";
import { SANDBOX_SCREENING_LIST } from "../../domain/compliance/sandbox-list.ts";
import type { ProviderAdapter } from "../provider-adapter.ts";
import { isDecimalString, parseObjectConfig } from "./config.ts";

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

export const complianceScreeningSimulator: ProviderAdapter = {
  slug: "simulator",
  category: "compliance_screening",
  name: "Sandbox screening list",
  simulator: true,
  parseConfig: (config) => parseObjectConfig(config ?? {}, {}),
  operations: {
    screen_address: {
      description: "Whether an address is on the sandbox sanctions list.",
      kind: "read",
      requiresApproval: false,
      inputSchema: {
        type: "object",
        required: ["address"],
        additionalProperties: false,
        properties: { address: { type: "string", minLength: 1, maxLength: 128 } },
      },
      async execute({ input }) {
        const { address } = input as { address: string };
        const listed = SANDBOX_SCREENING_LIST.addresses.has(normalizeAddress(address));
        return { address, sanctioned: listed, lists: listed ? ["sandbox-sanctions"] : [] };
      },
    },
  },
};

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
