// Sandbox screening: the sandbox list shipped with the service.
import { normalizeAddress } from "../../lib/compliance/normalize.ts";
import { SANDBOX_SCREENING_LIST } from "../../lib/compliance/sandbox-screening-list.ts";
import type { ProviderAdapter } from "../provider-adapter.ts";
import { parseObjectConfig } from "./config.ts";

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
