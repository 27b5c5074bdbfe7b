// Amounts as people read them: minor units (a digit string, exact) turned into a grouped decimal with the asset
// ("1,250.00 USDC"), by string arithmetic so 18-decimal assets lose nothing to floating point.

/** `minor` (digits, optionally signed) with `decimals` fraction digits, grouped by thousands; trailing zeros of the
 * fraction are dropped down to two ("1250000000", 6 → "1,250.00"; "1", 6 → "0.000001"). Null when `minor` is not an
 * integer string. */
export function formatMinor(minor: string, decimals: number): string | null {
  const match = /^(-?)(\d+)$/.exec(minor.trim());
  if (!match || !Number.isInteger(decimals) || decimals < 0) return null;
  const [, sign, digits] = match as unknown as [string, string, string];
  const padded = digits.padStart(decimals + 1, "0");
  const whole = padded.slice(0, padded.length - decimals).replace(/^0+(?=\d)/, "");
  let fraction = padded.slice(padded.length - decimals).replace(/0+$/, "");
  if (decimals >= 2) fraction = fraction.padEnd(2, "0");
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${sign}${grouped}${fraction ? `.${fraction}` : ""}`;
}

/** "1,250.00 USDC" when the decimals are known; else the minor units, said as such, so a raw number is never
 * mistaken for a decimal amount. */
export function formatAmount(minor: string, asset: string | null, decimals: number | null): string {
  const decimal = decimals === null ? null : formatMinor(minor, decimals);
  if (decimal === null) return `${minor} minor units${asset ? ` of ${asset}` : ""}`;
  return asset ? `${decimal} ${asset}` : decimal;
}

/** The decimals column of the contract's `CustodyAsset` table ("| `USDC`, `USDT` | 6 | …"), by asset symbol. */
export function custodyDecimals(custodyAssetDescription: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const row of custodyAssetDescription.matchAll(/^\|\s*((?:`[A-Z0-9]+`[,\s]*)+)\|\s*(\d+)\s*\|/gm)) {
    for (const symbol of row[1]!.matchAll(/`([A-Z0-9]+)`/g)) out.set(symbol[1]!, Number(row[2]));
  }
  return out;
}

/** Fraction digits of a currency or asset as people write it: ISO 4217's minor units for fiat (2 unless listed),
 * two for the dollar stablecoins. A decimal with more digits keeps them all: nothing is rounded away. */
const CURRENCY_DECIMALS: Record<string, number> = { JPY: 0, KRW: 0, CLP: 0, ISK: 0, VND: 0, BHD: 3, KWD: 3, OMR: 3, JOD: 3, TND: 3 };
export const currencyDecimals = (currency: string | null | undefined): number => CURRENCY_DECIMALS[(currency ?? "").toUpperCase()] ?? 2;

/** A decimal string ("125.5") with at least its currency's decimals, grouped ("125.50", "1,250.00"); anything else
 * unchanged, so an unexpected value is shown as it came. */
export function formatDecimal(amount: string, currency?: string | null): string {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(amount.trim());
  if (!match) return amount;
  const [, sign, whole, fraction = ""] = match as unknown as [string, string, string, string | undefined];
  const places = Math.max(currencyDecimals(currency), fraction.length);
  const padded = fraction.padEnd(places, "0");
  const grouped = whole.replace(/^0+(?=\d)/, "").replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${sign}${grouped}${padded ? `.${padded}` : ""}`;
}

/** A money figure of a metric (a number in `currency`): "$125.50", with the currency's decimals. */
export function formatMoney(value: number, currency = "USD"): string {
  const places = currencyDecimals(currency);
  return value.toLocaleString("en-US", { style: "currency", currency, minimumFractionDigits: places, maximumFractionDigits: places });
}
