// EVM address checksums (EIP-55), shared by the domain's address rules and the sandbox custody simulator.
import { keccak_256 } from "@noble/hashes/sha3.js";

/** EIP-55 mixed-case checksum of a 20-byte hex address. */
export function toChecksumAddress(address: string): string {
  const lower = address.toLowerCase().replace(/^0x/, "");
  const hash = Buffer.from(keccak_256(new TextEncoder().encode(lower))).toString("hex");
  let out = "0x";
  for (let i = 0; i < lower.length; i++) {
    out += Number.parseInt(hash[i] as string, 16) >= 8 ? (lower[i] as string).toUpperCase() : lower[i];
  }
  return out;
}
