// Rails, accounts and currencies of bank transfers: which account types and currencies each rail takes, reference
// limits, and the check digits of IBANs and ABA routing numbers. Used by bank transfers and by corridor rehearsals.
import type { FieldError } from "../../errors/service-error.ts";
import type { BankAccount, BankRail } from "../../providers/capabilities/bank-transfers.ts";

/** Active ISO 4217 codes. */
const ISO_4217 = new Set(
  (
    "AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BRL BSD BTN BWP BYN BZD CAD CDF CHF CLP " +
    "CNY COP CRC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD GNF GTQ GYD HKD HNL HTG HUF IDR " +
    "ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW KRW KWD KYD KZT LAK LBP LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT " +
    "MOP MRU MUR MVR MWK MXN MYR MZN NAD NGN NIO NOK NPR NZD OMR PAB PEN PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD " +
    "SCR SDG SEK SGD SHP SLE SOS SRD SSP STN SVC SYP SZL THB TJS TMT TND TOP TRY TTD TWD TZS UAH UGX USD UYU UZS VES VND " +
    "VUV WST XAF XCD XOF XPF YER ZAR ZMW ZWG"
  ).split(" "),
);
const ZERO_DECIMALS = new Set("BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX VND VUV XAF XOF XPF".split(" "));
const THREE_DECIMALS = new Set("BHD IQD JOD KWD LYD OMR TND".split(" "));

export const isIsoCurrency = (code: string) => ISO_4217.has(code);

/** Minor-unit digits of an ISO 4217 currency (2 unless listed otherwise). */
export const currencyDigits = (code: string) => (ZERO_DECIMALS.has(code) ? 0 : THREE_DECIMALS.has(code) ? 3 : 2);

/** SEPA scheme countries: the EEA plus CH, GB, MC, SM, VA, AD, GI. */
const SEPA_ZONE = new Set(
  "AT BE BG HR CY CZ DK EE FI FR DE GR HU IE IT LV LT LU MT NL PL PT RO SK SI ES SE IS LI NO CH GB MC SM VA AD GI".split(" "),
);

export const REFERENCE_LIMITS: Readonly<Record<BankRail, number>> = {
  sepa: 140,
  sepa_instant: 140,
  wire: 140,
  swift: 140,
  ach: 80,
  fps: 18,
};

/** When `rail` is omitted: `iban` with EUR → sepa, `aba` → ach, `sort_code` → fps, anything else → swift. */
export function deriveRail(destination: BankAccount, currency: string): BankRail {
  if (destination.type === "iban" && currency === "EUR") return "sepa";
  if (destination.type === "aba") return "ach";
  if (destination.type === "sort_code") return "fps";
  return "swift";
}

/** ISO 13616 mod-97 check. */
export function isValidIban(iban: string): boolean {
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const ch of rearranged) {
    const value = ch >= "A" && ch <= "Z" ? String(ch.charCodeAt(0) - 55) : ch;
    for (const digit of value) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder === 1;
}

/** ABA routing number check digit: 3·(d1+d4+d7) + 7·(d2+d5+d8) + (d3+d6+d9) ≡ 0 (mod 10). */
export function isValidAbaRouting(routing: string): boolean {
  if (!/^[0-9]{9}$/.test(routing)) return false;
  const weights = [3, 7, 1, 3, 7, 1, 3, 7, 1];
  const sum = [...routing].reduce((total, digit, i) => total + Number(digit) * (weights[i] as number), 0);
  return sum % 10 === 0;
}

/** Positive amount with at most the currency's minor digits; returns the minor units or an error message. */
export function parseCurrencyAmount(amount: string, currency: string): { minor: bigint } | { error: string } {
  const digits = currencyDigits(currency);
  const match = /^(0|[1-9][0-9]*)(?:\.([0-9]+))?$/.exec(amount);
  if (!match) return { error: "must be a decimal amount" };
  const fraction = match[2] ?? "";
  if (fraction.length > digits) return { error: `has more than the ${digits} fraction digits of ${currency}` };
  const minor = BigInt((match[1] as string) + fraction.padEnd(digits, "0"));
  if (minor <= 0n) return { error: "must be greater than zero" };
  return { minor };
}

/** Minor units as a decimal string with the currency's digits ("1250.00"). */
export function formatCurrencyAmount(minor: bigint, currency: string): string {
  const digits = currencyDigits(currency);
  if (digits === 0) return minor.toString();
  const text = minor.toString().padStart(digits + 1, "0");
  return `${text.slice(0, -digits)}.${text.slice(-digits)}`;
}

/** Check digits of one account. */
export function accountErrors(account: BankAccount, path: string): FieldError[] {
  const errors: FieldError[] = [];
  if (account.type === "iban") {
    if (!isValidIban(account.iban)) errors.push({ path: `${path}/iban`, message: "fails the IBAN mod-97 check" });
    else if (account.iban.slice(0, 2) !== account.country) {
      errors.push({ path: `${path}/country`, message: `must be the IBAN's country (${account.iban.slice(0, 2)})` });
    }
  }
  if (account.type === "aba") {
    if (!isValidAbaRouting(account.routingNumber)) errors.push({ path: `${path}/routingNumber`, message: "fails the ABA check digit" });
    if (account.country !== "US") errors.push({ path: `${path}/country`, message: "must be US for an aba account" });
  }
  if (account.type === "sort_code" && account.country !== "GB") {
    errors.push({ path: `${path}/country`, message: "must be GB for a sort_code account" });
  }
  return errors;
}

export interface BankOrderInput {
  amount: string;
  currency: string;
  source: BankAccount;
  destination: BankAccount;
  rail?: BankRail;
  reference?: string;
}

/**
 * Validates a bank order against the rail table (documented on `BankRail`): account types, SEPA zone, currency, holder
 * addresses, reference length, check digits, amount digits. `paths` name the fields in the caller's body.
 */
export function validateBankOrder(
  input: BankOrderInput,
  paths: { amount: string; currency: string; source: string; destination: string; rail: string; reference: string },
): { rail: BankRail; amountMinor: bigint | null; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const { currency, source, destination } = input;
  let amountMinor: bigint | null = null;
  if (!isIsoCurrency(currency)) errors.push({ path: paths.currency, message: "is not an active ISO 4217 currency code" });
  else {
    const parsed = parseCurrencyAmount(input.amount, currency);
    if ("error" in parsed) errors.push({ path: paths.amount, message: parsed.error });
    else amountMinor = parsed.minor;
  }
  errors.push(...accountErrors(source, paths.source), ...accountErrors(destination, paths.destination));
  const rail = input.rail ?? deriveRail(destination, currency);
  const railPath = input.rail ? paths.rail : paths.destination;
  const need = (ok: boolean, path: string, message: string) => {
    if (!ok) errors.push({ path, message });
  };
  const inSepa = (a: BankAccount) => a.type === "iban" && SEPA_ZONE.has(a.iban.slice(0, 2));
  switch (rail) {
    case "sepa":
    case "sepa_instant":
      need(source.type === "iban" && inSepa(source), paths.source, `${rail} needs an iban account in the SEPA zone`);
      need(destination.type === "iban" && inSepa(destination), paths.destination, `${rail} needs an iban account in the SEPA zone`);
      need(currency === "EUR", paths.currency, `${rail} pays EUR only`);
      break;
    case "ach":
    case "wire":
      need(source.type === "aba", paths.source, `${rail} needs an aba account`);
      need(destination.type === "aba", paths.destination, `${rail} needs an aba account`);
      need(currency === "USD", paths.currency, `${rail} pays USD only`);
      break;
    case "fps":
      need(source.type === "sort_code", paths.source, "fps needs a sort_code account");
      need(destination.type === "sort_code", paths.destination, "fps needs a sort_code account");
      need(currency === "GBP", paths.currency, "fps pays GBP only");
      break;
    case "swift":
      need(destination.type === "iban" || destination.type === "swift", railPath, "swift pays to an iban or swift account");
      break;
  }
  if (rail === "wire" || rail === "swift") {
    need(source.address !== undefined, `${paths.source}/address`, `is required on ${rail}`);
    need(destination.address !== undefined, `${paths.destination}/address`, `is required on ${rail}`);
  }
  if (input.reference !== undefined && input.reference.length > REFERENCE_LIMITS[rail]) {
    errors.push({ path: paths.reference, message: `is longer than the ${REFERENCE_LIMITS[rail]} characters ${rail} allows` });
  }
  return { rail, amountMinor, errors };
}

/** Masks every character but the last four; an IBAN keeps its first four too. */
export function maskAccountNumber(value: string, keepPrefix: boolean): string {
  const tail = value.slice(-4);
  const head = keepPrefix ? value.slice(0, 4) : "";
  return head + "*".repeat(Math.max(0, value.length - head.length - tail.length)) + tail;
}
