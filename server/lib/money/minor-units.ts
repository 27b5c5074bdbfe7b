// Exact decimal arithmetic on amounts as BigInt minor units. JavaScript numbers never touch money.

const DECIMAL_PATTERN = /^(0|[1-9][0-9]*)(\.([0-9]+))?$/;

/** Parses a plain positive decimal string ("12.50") into minor units with `decimals` places. Returns null when
 * the string is not a plain decimal or has more fractional digits than `decimals`. */
export function parseDecimalToMinor(value: string, decimals: number): bigint | null {
  const match = DECIMAL_PATTERN.exec(value);
  if (!match) return null;
  const fraction = match[3] ?? "";
  if (fraction.length > decimals) return null;
  return BigInt(match[1] + fraction.padEnd(decimals, "0"));
}

/** Formats minor units as a decimal string without trailing zeros, keeping at least two decimal places
 * ("1000.00", "0.1455", "0.000001"). */
export function formatMinor(minor: bigint, decimals: number): string {
  const negative = minor < 0n;
  const digits = (negative ? -minor : minor).toString().padStart(decimals + 1, "0");
  const whole = digits.slice(0, digits.length - decimals);
  let fraction = digits.slice(digits.length - decimals).replace(/0+$/, "");
  if (fraction.length < 2) fraction = fraction.padEnd(Math.min(2, decimals), "0");
  const text = fraction.length > 0 ? `${whole}.${fraction}` : whole;
  return negative ? `-${text}` : text;
}

/** Rescales minor units between precisions, rounding half-up when reducing. */
export function rescaleMinor(minor: bigint, fromDecimals: number, toDecimals: number): bigint {
  if (toDecimals >= fromDecimals) return minor * 10n ** BigInt(toDecimals - fromDecimals);
  const divisor = 10n ** BigInt(fromDecimals - toDecimals);
  return (minor + divisor / 2n) / divisor;
}

const NUMERIC_TEXT = /^(-?)(0|[0-9]+)(?:\.([0-9]+))?$/;

/** Minor units with `decimals` places from a numeric column's text (PostgreSQL `numeric`, as both drivers return it:
 * "125.500000000000000000", "1000"), rounding half-up away from zero when the column holds more places. */
export function numericToMinor(text: string, decimals: number): bigint {
  const match = NUMERIC_TEXT.exec(text);
  if (!match) throw new Error(`not a numeric value: ${text}`);
  const fraction = match[3] ?? "";
  const magnitude = rescaleMinor(BigInt((match[2] as string) + fraction), fraction.length, decimals);
  return match[1] === "-" ? -magnitude : magnitude;
}
