// Sandbox custody: balances and transfers of a simulated custodian. Deterministic; magic values in magic-values.ts.
import { createHash } from "node:crypto";
import type { ProviderAdapter } from "../provider-adapter.ts";
import { parseObjectConfig } from "./config.ts";
import { failOnMagic } from "./magic-values.ts";

/** Every simulated custody wallet starts with this balance of each asset (minor units, 6 decimals). */
export const SIMULATED_STARTING_BALANCE_MINOR = "1000000000000";

export const custodySimulator: ProviderAdapter = {
  slug: "simulator",
  category: "custody",
  name: "Sandbox custody simulator",
  simulator: true,
  parseConfig: (config) => parseObjectConfig(config ?? {}, {}),
  operations: {
    get_balance: {
      description: "Balance of `asset` (default USDC) in a custody wallet, in minor units.",
      kind: "read",
      requiresApproval: false,
      inputSchema: {
        type: "object",
        required: ["walletId"],
        additionalProperties: false,
        properties: { walletId: { type: "string", minLength: 1, maxLength: 64 }, asset: { enum: ["USDC", "USDT", "DAI"] } },
      },
      async execute({ input }) {
        const { walletId, asset = "USDC" } = input as { walletId: string; asset?: string };
        return { walletId, asset, amountMinor: SIMULATED_STARTING_BALANCE_MINOR, decimals: asset === "DAI" ? 18 : 6 };
      },
    },
    create_transfer: {
      description: "Send `amountMinor` of `asset` from a custody wallet to `destination`. Needs an approved approval request.",
      kind: "write",
      requiresApproval: true,
      inputSchema: {
        type: "object",
        required: ["walletId", "destination", "asset", "amountMinor"],
        additionalProperties: false,
        properties: {
          walletId: { type: "string", minLength: 1, maxLength: 64 },
          destination: { type: "string", minLength: 1, maxLength: 128 },
          asset: { enum: ["USDC", "USDT", "DAI"] },
          amountMinor: { type: "string", pattern: "^[1-9][0-9]{0,37}$" },
          travelRule: { type: "object" },
        },
      },
      screen: (input: { destination: string; asset: string; amountMinor: string }) => ({
        addresses: [{ role: "destination", address: input.destination }],
        amount: { value: minorToDecimal(input.amountMinor, input.asset === "DAI" ? 18 : 6), currency: input.asset },
      }),
      async execute({ input }) {
        const { walletId, destination, amountMinor } = input as { walletId: string; destination: string; amountMinor: string };
        failOnMagic({ address: destination });
        const id = createHash("sha256").update(`${walletId}|${destination}|${amountMinor}`).digest("hex").slice(0, 16);
        return { providerTransferId: `sim_tx_${id}`, state: "submitted" };
      },
    },
  },
};

function minorToDecimal(minor: string, decimals: number): string {
  const padded = minor.padStart(decimals + 1, "0");
  return `${padded.slice(0, -decimals)}.${padded.slice(-decimals)}`;
}
