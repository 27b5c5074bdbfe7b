// Card amounts are decimal strings of the programme's funding asset (USDC/USDT 6 decimals, DAI 18); more decimals than
// the asset has, or zero where an amount must move money, is 422 CARD_REQUEST_REJECTED. Spend windows reset at 00:00
// UTC daily and on the 1st at 00:00 UTC monthly (CardLimits in openapi/components/schemas/cards.yaml).
import { describe, expect, it } from "vitest";
import { startOfUtcDay, startOfUtcMonth } from "../../../../server/domain/cards/authorized-since.ts";
import { decimalToMinor, formatCardAmount, parseCardAmount } from "../../../../server/domain/cards/card-amount.ts";
import { ServiceError } from "../../../../server/errors/service-error.ts";

const rejection = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return error instanceof ServiceError ? { code: error.code, message: error.message } : { code: "other", message: String(error) };
  }
  return null;
};

describe("parseCardAmount", () => {
  it.each([
    ["25.00", "USDC", 25_000_000n],
    ["0.000001", "USDT", 1n],
    ["1", "DAI", 10n ** 18n],
    ["0.000000000000000001", "DAI", 1n],
  ])("%s %s → %s minor", (value, asset, minor) => {
    expect(parseCardAmount(value, asset, "amount")).toBe(minor);
  });

  it.each([
    ["0.0000001", "USDC", /more than the 6 decimal places of USDC/],
    ["0.0000000000000000001", "DAI", /more than the 18 decimal places of DAI/],
    ["0", "USDC", /must be greater than zero/],
    ["0.000000", "USDC", /must be greater than zero/],
  ])("%s %s → 422 CARD_REQUEST_REJECTED", (value, asset, message) => {
    const error = rejection(() => parseCardAmount(value, asset, "amount"));
    expect(error?.code).toBe("CARD_REQUEST_REJECTED");
    expect(error?.message).toMatch(message);
  });

  it("accepts zero where a limit may be zero (allowZero)", () => {
    expect(parseCardAmount("0", "USDC", "limits.daily", { allowZero: true })).toBe(0n);
  });

  it("names the nested field in the error path", () => {
    try {
      parseCardAmount("1.0000001", "USDC", "limits.daily");
      expect.unreachable();
    } catch (error) {
      expect((error as ServiceError).errors).toEqual([{ path: "/body/limits/daily", message: "at most 6 decimal places for USDC" }]);
    }
  });
});

describe("formatCardAmount and decimalToMinor", () => {
  it.each([
    [250_000_000n, "USDC", "250.00"],
    [1n, "USDC", "0.000001"],
    [0n, "USDT", "0.00"],
    [10n ** 18n + 5n * 10n ** 17n, "DAI", "1.50"],
  ])("%s minor %s → %s", (minor, asset, text) => {
    expect(formatCardAmount(minor, asset)).toBe(text);
  });

  it.each([
    ["250000000", 250_000_000n],
    ["0", 0n],
    ["123456789012345678901234567890", 123_456_789_012_345_678_901_234_567_890n],
  ])("Decimal(78,0) %s → %s", (text, minor) => {
    expect(decimalToMinor(text)).toBe(minor);
  });
});

describe("spend windows (UTC)", () => {
  it.each([
    ["2026-11-22T15:30:00.000Z", "2026-11-22T00:00:00.000Z", "2026-11-01T00:00:00.000Z"],
    ["2026-11-22T00:00:00.000Z", "2026-11-22T00:00:00.000Z", "2026-11-01T00:00:00.000Z"],
    ["2026-11-22T23:59:59.999Z", "2026-11-22T00:00:00.000Z", "2026-11-01T00:00:00.000Z"],
    ["2026-12-01T00:00:00.000Z", "2026-12-01T00:00:00.000Z", "2026-12-01T00:00:00.000Z"], // a new month starts both windows
    ["2026-11-30T23:59:59.999Z", "2026-11-30T00:00:00.000Z", "2026-11-01T00:00:00.000Z"],
    ["2028-02-29T12:00:00.000Z", "2028-02-29T00:00:00.000Z", "2028-02-01T00:00:00.000Z"], // leap day
    ["2027-01-01T00:30:00.000+01:00", "2026-12-31T00:00:00.000Z", "2026-12-01T00:00:00.000Z"], // local midnight is not UTC
  ])("at %s the day starts %s, the month %s", (now, day, month) => {
    expect(startOfUtcDay(new Date(now)).toISOString()).toBe(day);
    expect(startOfUtcMonth(new Date(now)).toISOString()).toBe(month);
  });
});
