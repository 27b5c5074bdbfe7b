// Rails, accounts and currencies of bank transfers, as documented on BankRail, BankReference and the transfer amount
// (openapi/components/schemas/bank-transfers.yaml).
import { describe, expect, it } from "vitest";
import {
  type accountErrors,
  currencyDigits,
  deriveRail,
  formatCurrencyAmount,
  isIsoCurrency,
  isValidAbaRouting,
  isValidIban,
  maskAccountNumber,
  parseCurrencyAmount,
  REFERENCE_LIMITS,
  validateBankOrder,
} from "../../../../server/domain/bank-transfers/bank-rails.ts";

type Account = Parameters<typeof accountErrors>[0];
const ADDRESS = { line1: "1 Main Street", city: "Berlin", country: "DE" };
const iban = (number: string, extra: object = {}) =>
  ({ type: "iban", iban: number, accountHolderName: "A", country: number.slice(0, 2), ...extra }) as Account;
const aba = (extra: object = {}) =>
  ({ type: "aba", routingNumber: "021000021", accountNumber: "123456789", accountHolderName: "A", country: "US", ...extra }) as Account;
const sortCode = (extra: object = {}) =>
  ({ type: "sort_code", sortCode: "040004", accountNumber: "41921234", accountHolderName: "A", country: "GB", ...extra }) as Account;
const swift = (extra: object = {}) =>
  ({ type: "swift", bic: "BOTKJPJTXXX", accountNumber: "5012345678", accountHolderName: "A", country: "JP", ...extra }) as Account;

const DE = "DE89370400440532013000";
const FR = "FR1420041010050500013M02606";
const GB = "GB29NWBK60161331926819";
const PATHS = {
  amount: "/body/amount",
  currency: "/body/currency",
  source: "/body/source",
  destination: "/body/destination",
  rail: "/body/rail",
  reference: "/body/reference",
};

describe("check digits", () => {
  it.each([
    [DE, true],
    [FR, true],
    [GB, true],
    ["DE89370400440532013001", false], // last digit changed
    ["DE98370400440532013000", false], // check digits swapped
  ])("IBAN %s mod-97: %s", (value, ok) => {
    expect(isValidIban(value)).toBe(ok);
  });

  it.each([
    ["021000021", true],
    ["011000015", true],
    ["021000022", false],
    ["02100002", false], // eight digits
    ["0210000210", false], // ten digits
    ["02100002a", false],
  ])("ABA routing %s: %s", (value, ok) => {
    expect(isValidAbaRouting(value)).toBe(ok);
  });
});

describe("currencies and amounts", () => {
  it.each([
    ["EUR", true, 2],
    ["USD", true, 2],
    ["JPY", true, 0],
    ["KWD", true, 3],
    ["BHD", true, 3],
    ["XYZ", false, 2],
    ["usd", false, 2],
  ])("%s: ISO 4217 %s, %i minor digits", (code, iso, digits) => {
    expect(isIsoCurrency(code)).toBe(iso);
    expect(currencyDigits(code)).toBe(digits);
  });

  it.each([
    ["1250.00", "EUR", 125_000n],
    ["0.01", "USD", 1n],
    ["1250", "JPY", 1250n],
    ["1.234", "KWD", 1234n],
    ["1.5", "GBP", 150n],
  ])("%s %s → %s minor", (amount, currency, minor) => {
    expect(parseCurrencyAmount(amount, currency)).toEqual({ minor });
  });

  it.each([
    ["0.001", "USD", "has more than the 2 fraction digits of USD"],
    ["1.5", "JPY", "has more than the 0 fraction digits of JPY"],
    ["0", "EUR", "must be greater than zero"],
    ["0.00", "EUR", "must be greater than zero"],
    ["-1", "EUR", "must be a decimal amount"],
    ["1e3", "EUR", "must be a decimal amount"],
    ["01.00", "EUR", "must be a decimal amount"],
  ])("%s %s is refused: %s", (amount, currency, error) => {
    expect(parseCurrencyAmount(amount, currency)).toEqual({ error });
  });

  it.each([
    [125_000n, "EUR", "1250.00"],
    [1n, "USD", "0.01"],
    [1250n, "JPY", "1250"],
    [1234n, "KWD", "1.234"],
    [5n, "KWD", "0.005"],
  ])("%s minor %s → %s", (minor, currency, text) => {
    expect(formatCurrencyAmount(minor, currency)).toBe(text);
  });
});

describe("deriveRail when rail is omitted", () => {
  it.each([
    [iban(DE), "EUR", "sepa"],
    [iban(DE), "USD", "swift"],
    [aba(), "USD", "ach"],
    [sortCode(), "GBP", "fps"],
    [swift(), "JPY", "swift"],
  ])("%j in %s → %s", (destination, currency, rail) => {
    expect(deriveRail(destination, currency)).toBe(rail);
  });
});

describe("validateBankOrder: the rail table", () => {
  const order = (input: Partial<Parameters<typeof validateBankOrder>[0]>) =>
    validateBankOrder({ amount: "10.00", currency: "EUR", source: iban(DE), destination: iban(FR), ...input }, PATHS);
  const paths = (input: Partial<Parameters<typeof validateBankOrder>[0]>) => order(input).errors.map((e) => e.path);

  it.each<[string, Partial<Parameters<typeof validateBankOrder>[0]>, string, string[]]>([
    ["sepa between two SEPA IBANs in EUR", {}, "sepa", []],
    ["sepa_instant between two SEPA IBANs in EUR", { rail: "sepa_instant" }, "sepa_instant", []],
    ["sepa in USD", { rail: "sepa", currency: "USD" }, "sepa", ["/body/currency"]],
    ["sepa from an IBAN outside the SEPA zone", { rail: "sepa", source: iban("BR1800360305000010009795493C1") }, "sepa", ["/body/source"]],
    ["ach between aba accounts in USD", { rail: "ach", currency: "USD", source: aba(), destination: aba() }, "ach", []],
    ["ach derived from an aba destination", { currency: "USD", source: aba(), destination: aba() }, "ach", []],
    ["ach in EUR", { rail: "ach", source: aba(), destination: aba() }, "ach", ["/body/currency"]],
    [
      "wire without holder addresses",
      { rail: "wire", currency: "USD", source: aba(), destination: aba() },
      "wire",
      ["/body/source/address", "/body/destination/address"],
    ],
    [
      "wire with both holder addresses",
      { rail: "wire", currency: "USD", source: aba({ address: ADDRESS }), destination: aba({ address: ADDRESS }) },
      "wire",
      [],
    ],
    ["fps between sort codes in GBP", { rail: "fps", currency: "GBP", source: sortCode(), destination: sortCode() }, "fps", []],
    ["fps to an IBAN", { rail: "fps", currency: "GBP", source: sortCode(), destination: iban(GB) }, "fps", ["/body/destination"]],
    [
      "swift from any account type to a swift account, any currency, with addresses",
      { rail: "swift", currency: "JPY", amount: "1000", source: aba({ address: ADDRESS }), destination: swift({ address: ADDRESS }) },
      "swift",
      [],
    ],
    [
      "swift to an aba account",
      { rail: "swift", currency: "USD", source: iban(DE, { address: ADDRESS }), destination: aba({ address: ADDRESS }) },
      "swift",
      ["/body/rail"],
    ],
    // an IBAN in another currency than EUR goes by swift, which needs both holder addresses
    ["an unknown currency", { currency: "XYZ" }, "swift", ["/body/currency", "/body/source/address", "/body/destination/address"]],
    ["a bad IBAN check digit", { destination: iban("FR1420041010050500013M02607") }, "sepa", ["/body/destination/iban"]],
    [
      "an IBAN whose country differs from the account's",
      { destination: iban(FR, { country: "DE" }) },
      "sepa",
      ["/body/destination/country"],
    ],
    [
      "an aba account outside the US",
      { rail: "ach", currency: "USD", source: aba({ country: "CA" }), destination: aba() },
      "ach",
      ["/body/source/country"],
    ],
    [
      "a sort_code account outside GB",
      { rail: "fps", currency: "GBP", source: sortCode(), destination: sortCode({ country: "IE" }) },
      "fps",
      ["/body/destination/country"],
    ],
  ])("%s", (_name, input, rail, errorPaths) => {
    const result = order(input);
    expect(result.rail).toBe(rail);
    expect(result.errors.map((e) => e.path)).toEqual(errorPaths);
  });

  it("parses the amount at the currency's digits, or reports it", () => {
    expect(order({ amount: "12.34" }).amountMinor).toBe(1234n);
    expect(order({ amount: "12.345" })).toMatchObject({ amountMinor: null, errors: [{ path: "/body/amount" }] });
  });

  it.each([
    ["sepa", 140],
    ["sepa_instant", 140],
    ["wire", 140],
    ["swift", 140],
    ["ach", 80],
    ["fps", 18],
  ] as const)("reference on %s: %i characters pass, one more is refused (never truncated)", (rail, limit) => {
    expect(REFERENCE_LIMITS[rail]).toBe(limit);
    const accounts = {
      sepa: { currency: "EUR" },
      sepa_instant: { currency: "EUR" },
      wire: { currency: "USD", source: aba({ address: ADDRESS }), destination: aba({ address: ADDRESS }) },
      swift: { currency: "EUR", source: iban(DE, { address: ADDRESS }), destination: iban(FR, { address: ADDRESS }) },
      ach: { currency: "USD", source: aba(), destination: aba() },
      fps: { currency: "GBP", source: sortCode(), destination: sortCode() },
    }[rail];
    expect(paths({ rail, ...accounts, reference: "R".repeat(limit) })).toEqual([]);
    expect(paths({ rail, ...accounts, reference: "R".repeat(limit + 1) })).toEqual(["/body/reference"]);
  });
});

describe("maskAccountNumber", () => {
  it.each([
    ["DE89370400440532013000", true, "DE89**************3000"],
    ["123456789", false, "*****6789"],
    ["1234", false, "1234"],
    ["12", false, "12"],
    ["DE893000", true, "DE893000"],
  ])("%s (keep prefix %s) → %s", (value, keepPrefix, masked) => {
    expect(maskAccountNumber(value, keepPrefix)).toBe(masked);
  });
});
