// Category-specific provider APIs of the treasury: chain readers (chain_read) and reserve sources (token_issuance).
import type { SandboxChainLogStore } from "../../chain/sandbox-chain-log.ts";
import { ProviderUnavailableError } from "./provider-unavailable.ts";

export interface Erc20Reading {
  totalSupplyMinor: string;
  decimals: number;
  /** `symbol()`, or null when the contract does not answer it as a string. */
  symbol: string | null;
  blockNumber: number;
  /** `balanceOf(holder)` per requested holder (keys as requested). */
  balances: Record<string, string>;
}

export interface ChainReadContext {
  /** The sandbox chain's log on the database (never inside a transaction: readers are called with no transaction open).
   * The sandbox chain reader names its chain by it; a live reader ignores it. */
  sandboxChainLog: SandboxChainLogStore;
  config: Record<string, unknown>;
  chain: string;
  contractAddress: string;
  holders?: string[];
}

export interface ChainReaderApi {
  /** Whether this reader serves `chain` for a key of `environment` under this connection config. */
  supportsChain(chain: string, config: Record<string, unknown>, environment: string): boolean;
  /** Reads an ERC-20 token at one block. Throws ChainReadError. */
  readErc20(ctx: ChainReadContext): Promise<Erc20Reading>;
}

/** `not_a_token`: the address holds no ERC-20 (no code, or totalSupply/decimals revert or return nothing);
 * `unavailable`: the node could not be reached, failed, or timed out. */
export class ChainReadError extends Error {
  readonly kind: "not_a_token" | "unavailable";

  constructor(kind: "not_a_token" | "unavailable", message: string) {
    super(message);
    this.kind = kind;
  }
}

/** What a reserve source reports; a value it does not report is null (never estimated). */
export interface ReserveReport {
  reserveRatio: string | null;
  circulatingSupplyMinor: string | null;
  pegPrice: string | null;
}

export interface ReserveSourceApi {
  /** Throws ReserveSourceUnavailable when the source cannot be reached. */
  report(ctx: { config: Record<string, unknown>; chain: string; contractAddress: string }): Promise<ReserveReport>;
}

/** The reserve source could not be reached (→ 503 SOURCE_NOT_AVAILABLE, like any unreachable provider). */
export class ReserveSourceUnavailable extends ProviderUnavailableError {}
