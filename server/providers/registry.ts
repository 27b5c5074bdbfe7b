// Every provider adapter this build can talk to: the sandbox simulator of each category, and live adapters.
import { jsonRpcChainReader } from "./json-rpc-chain-reader.ts";
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

/** Live (non-simulator) adapters. Kept apart from PROVIDER_ADAPTERS, the simulators listed in the provider directory. */
export const LIVE_ADAPTERS: readonly ProviderAdapter[] = [jsonRpcChainReader];

export function findAdapter(category: ProviderCategory, slug: string): ProviderAdapter | undefined {
  return [...PROVIDER_ADAPTERS, ...LIVE_ADAPTERS].find((a) => a.category === category && a.slug === slug);
}
