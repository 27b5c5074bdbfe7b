import { describe, expect, it } from "vitest";
import { formatMinor, parseDecimalToMinor, rescaleMinor } from "../../server/lib/money/minor-units.ts";

describe("parseDecimalToMinor", () => {
  it.each([
    ["12.50", 2, 1250n],
    ["12.5", 6, 12_500_000n],
    ["0", 6, 0n],
    ["0.000001", 6, 1n],
    ["1", 18, 10n ** 18n],
    ["1.000000000000000001", 18, 10n ** 18n + 1n],
    ["999999999999999999", 6, 999_999_999_999_999_999_000_000n],
    ["7", 0, 7n],
  ])("%s with %i decimals → %s", (text, decimals, minor) => {
    expect(parseDecimalToMinor(text, decimals)).toBe(minor);
  });

  it.each([
    ["more decimals than the asset has", "1.1234567", 6],
    ["a fraction where none is allowed", "1.5", 0],
    ["a leading zero", "01", 6],
    ["a trailing dot", "1.", 6],
    ["a leading dot", ".5", 6],
    ["a sign", "-1", 6],
    ["a plus sign", "+1", 6],
    ["an exponent", "1e3", 6],
    ["whitespace", " 1", 6],
    ["a comma", "1,5", 6],
    ["the empty string", "", 6],
    ["hex", "0x10", 6],
  ])("rejects %s (%s) with null", (_name, text, decimals) => {
    expect(parseDecimalToMinor(text, decimals)).toBeNull();
  });
});

describe("formatMinor", () => {
  it.each([
    [125_500_000n, 6, "125.50"],
    [145_500n, 6, "0.1455"],
    [1n, 6, "0.000001"],
    [0n, 6, "0.00"],
    [1000n * 10n ** 18n, 18, "1000.00"],
    [10n ** 18n + 1n, 18, "1.000000000000000001"],
    [1230n, 3, "1.23"],
    [-150n, 2, "-1.50"],
    [-1n, 6, "-0.000001"],
    [5n, 0, "5"],
    [5n, 1, "0.5"],
    [50n, 1, "5.0"],
  ])("%s with %i decimals → %s", (minor, decimals, text) => {
    expect(formatMinor(minor, decimals)).toBe(text);
  });

  it.each([
    ["0.000001", 6],
    ["125.50", 6],
    ["1.000000000000000001", 18],
    ["1000.00", 18],
  ])("round-trips %s", (text, decimals) => {
    expect(formatMinor(parseDecimalToMinor(text, decimals) as bigint, decimals)).toBe(text);
  });
});

describe("rescaleMinor", () => {
  it.each([
    [1n, 0, 6, 1_000_000n],
    [1_234n, 2, 2, 1_234n],
    [1_500_000n, 6, 0, 2n],
    [1_499_999n, 6, 0, 1n],
    [2_500_000n, 6, 0, 3n], // half-up, not half-even
    [5n, 1, 0, 1n],
    [4n, 1, 0, 0n],
    [10n ** 18n, 18, 6, 1_000_000n],
    [500_000_000_000n, 18, 6, 1n], // 0.0000005 → 0.000001
    [499_999_999_999n, 18, 6, 0n],
  ])("%s from %i to %i decimals → %s", (minor, from, to, expected) => {
    expect(rescaleMinor(minor, from, to)).toBe(expected);
  });
});
