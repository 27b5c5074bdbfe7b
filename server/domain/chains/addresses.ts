// Address and transaction-hash formats of the sandbox chains.
import { base58 } from "@scure/base";
import { toChecksumAddress } from "../../lib/chains/evm-address.ts";
import { randomBuffer, randomHex } from "../../lib/ids.ts";

export const CHAINS = ["ethereum", "polygon", "base", "solana"] as const;
export type Chain = (typeof CHAINS)[number];

const isEvm = (chain: Chain) => chain !== "solana";

export function isValidAddress(chain: Chain, address: string): boolean {
  if (isEvm(chain)) {
    if (!/^0x[0-9a-fA-F]{40}$/.test(address)) return false;
    const body = address.slice(2);
    // All-lower or all-upper carries no checksum; mixed case must match EIP-55.
    if (body === body.toLowerCase() || body === body.toUpperCase()) return true;
    return toChecksumAddress(address) === address;
  }
  try {
    return base58.decode(address).length === 32;
  } catch {
    return false;
  }
}

export function generateAddress(chain: Chain): string {
  if (isEvm(chain)) return toChecksumAddress(`0x${randomHex(20)}`);
  return base58.encode(randomBuffer(32));
}

/** A mock transaction hash in the chain's format: EVM 0x + 64 hex, Solana a base58 64-byte signature. */
export function mockTxHash(chain: Chain): string {
  if (isEvm(chain)) return `0x${randomHex(32)}`;
  return base58.encode(randomBuffer(64));
}
