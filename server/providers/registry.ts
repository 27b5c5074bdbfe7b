// Every provider adapter this build can talk to. Today: the sandbox simulator of each category.
import type { ProviderAdapter, ProviderCategory } from "./provider-adapter.ts";
import { bankTransferSimulator } from "./simulators/bank-transfer-simulator.ts";
import { cardIssuanceSimulator } from "./simulators/card-issuance-simulator.ts";
import { chainReadSimulator } from "./simulators/chain-read-simulator.ts";
import { complianceScreeningSimulator } from "./simulators/compliance-screening-simulator.ts";
import { custodySimulator } from "./simulators/custody-simulator.ts";
import { fxSimulator } from "./simulators/fx-simulator.ts";
import { tokenIssuanceSimulator } from "./simulators/token-issuance-simulator.ts";

export const PROVIDER_ADAPTERS: readonly ProviderAdapter[] = [
  bankTransferSimulator,
  custodySimulator,
  cardIssuanceSimulator,
  tokenIssuanceSimulator,
  chainReadSimulator,
  complianceScreeningSimulator,
  fxSimulator,
];

export function findAdapter(category: ProviderCategory, slug: string): ProviderAdapter | undefined {
  return PROVIDER_ADAPTERS.find((a) => a.category === category && a.slug === slug);
}
