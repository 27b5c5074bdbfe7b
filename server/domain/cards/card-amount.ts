import { ServiceError } from "../../errors/service-error.ts";
import { formatMinor, numericToMinor, parseDecimalToMinor } from "../../lib/money/minor-units.ts";
import { ASSET_DECIMALS, type Stablecoin } from "../money/assets.ts";

/** Parses an amount of the programme's funding asset into minor units; more decimals than the asset has → 422
 * CARD_REQUEST_REJECTED, and so is zero unless `allowZero`. */
export function parseCardAmount(value: string, asset: string, field: string, options: { allowZero?: boolean } = {}): bigint {
  const decimals = ASSET_DECIMALS[asset as Stablecoin];
  const minor = parseDecimalToMinor(value, decimals);
  if (minor === null) {
    throw new ServiceError("CARD_REQUEST_REJECTED", `${field} ${value} has more than the ${decimals} decimal places of ${asset}`, {
      errors: [{ path: `/body/${field.replaceAll(".", "/")}`, message: `at most ${decimals} decimal places for ${asset}` }],
    });
  }
  if (minor === 0n && !options.allowZero) {
    throw new ServiceError("CARD_REQUEST_REJECTED", `${field} must be greater than zero`, {
      errors: [{ path: `/body/${field.replaceAll(".", "/")}`, message: "must be greater than zero" }],
    });
  }
  return minor;
}

/** Minor units of `asset` as a decimal string ("250.00"). */
export const formatCardAmount = (minor: bigint, asset: string): string => formatMinor(minor, ASSET_DECIMALS[asset as Stablecoin]);

/** A Decimal(78,0) column value (numeric text, as both drivers return it) as minor units. */
export const decimalToMinor = (value: string): bigint => numericToMinor(value, 0);
