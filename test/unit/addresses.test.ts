import { base58 } from "@scure/base";
import { describe, expect, it } from "vitest";
import { CHAINS, generateAddress, isValidAddress, mockTxHash } from "../../server/domain/chains/addresses.ts";
import { toChecksumAddress } from "../../server/lib/chains/evm-address.ts";

// The test vectors of EIP-55 (https://eips.ethereum.org/EIPS/eip-55): each is its own checksummed form.
const EIP55_VECTORS = [
  "0x52908400098527886E0F7030069857D2E4169EE7",
  "0x8617E340B3D01FA5F11F306F4090FD50E238070D",
  "0xde709f2102306220921060314715629080e2fb77",
  "0x27b1fdb04752bbc536007a920d24acb045561c26",
  "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
  "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
  "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB",
  "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb",
];
const EVM_CHAINS = ["ethereum", "polygon", "base"] as const;

describe("toChecksumAddress (EIP-55)", () => {
  it.each(EIP55_VECTORS)("%s", (address) => {
    expect(toChecksumAddress(address.toLowerCase())).toBe(address);
    expect(toChecksumAddress(address.toUpperCase().replace(/^0X/, "0x"))).toBe(address);
    expect(toChecksumAddress(address.slice(2))).toBe(address);
  });
});

describe("isValidAddress on EVM chains", () => {
  it.each(EVM_CHAINS.flatMap((chain) => EIP55_VECTORS.map((a) => [chain, a] as const)))("%s accepts %s", (chain, address) => {
    expect(isValidAddress(chain, address)).toBe(true);
  });

  it.each([
    ["all lower case (no checksum)", "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed", true],
    ["all upper case (no checksum)", "0x5AAEB6053F3E94C9B9A09F33669435E7EF1BEAED", true],
    ["one letter's case flipped", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD", false],
    ["39 hex digits", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAe", false],
    ["41 hex digits", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed0", false],
    ["no 0x", "5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", false],
    ["0X prefix", "0X5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", false],
    ["a non-hex character", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeg", false],
    ["a Solana address", "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin", false],
    ["empty", "", false],
  ] as const)("%s → %s", (_name, address, valid) => {
    for (const chain of EVM_CHAINS) expect(isValidAddress(chain, address)).toBe(valid);
  });
});

describe("isValidAddress on Solana (base58 of 32 bytes)", () => {
  it.each([
    ["a known program id", "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin", true],
    ["the system program (32 zero bytes)", "11111111111111111111111111111111", true],
    ["32 bytes of 0xff", base58.encode(new Uint8Array(32).fill(255)), true],
    ["31 bytes", base58.encode(new Uint8Array(31).fill(7)), false],
    ["33 bytes", base58.encode(new Uint8Array(33).fill(7)), false],
    ["64 bytes (a signature)", base58.encode(new Uint8Array(64).fill(7)), false],
    ["a 0 (not in the alphabet)", "0xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin", false],
    ["an O (not in the alphabet)", "OxQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin", false],
    ["an l (not in the alphabet)", "lxQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin", false],
    ["an EVM address", "0x52908400098527886E0F7030069857D2E4169EE7", false],
    ["empty", "", false],
  ])("%s → %s", (_name, address, valid) => {
    expect(isValidAddress("solana", address)).toBe(valid);
  });
});

describe("generateAddress and mockTxHash", () => {
  it.each(CHAINS)("%s: generated addresses are valid and distinct", (chain) => {
    const addresses = Array.from({ length: 20 }, () => generateAddress(chain));
    for (const a of addresses) expect(isValidAddress(chain, a)).toBe(true);
    expect(new Set(addresses).size).toBe(addresses.length);
    if (chain !== "solana") for (const a of addresses) expect(a).toBe(toChecksumAddress(a));
  });

  it.each(CHAINS)("%s: a transaction hash in the chain's format", (chain) => {
    const hash = mockTxHash(chain);
    if (chain === "solana") expect(base58.decode(hash)).toHaveLength(64);
    else expect(hash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(mockTxHash(chain)).not.toBe(hash);
  });
});
