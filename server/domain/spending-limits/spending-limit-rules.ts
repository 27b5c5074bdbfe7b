// The rules of an API key's spending limits (issue 37), pure: what a key may carry and whether a call fits. Amounts are
// exact: decimal strings turned into BigInt units of 10^-18 (the columns' scale), never JavaScript numbers.
import { ServiceError, validationError } from "../../errors/service-error.ts";
import { parseDecimalToMinor } from "../../lib/money/minor-units.ts";

/** The columns' scale (numeric(38, 18)): every amount is compared in these units. */
export const SPENDING_SCALE = 18;

export interface SpendingLimitInput {
  asset: string;
  perCall?: string;
  per24h?: string;
}

/** A key's limit on one asset, as stored and shown (null: that limit does not apply). */
export interface SpendingLimit {
  asset: string;
  perCall: string | null;
  per24h: string | null;
}

/** What a 403 says about the limit a call met (the `spendingLimit` problem extension). */
export interface SpendingLimitExceeded {
  asset: string;
  limit: "perCall" | "per24h";
  maximum: string;
  used: string;
  requested: string;
}

/** Units of 10^-18 from a decimal string the contract validated ("12.5"); throws on anything else. */
export function toUnits(amount: string): bigint {
  const units = parseDecimalToMinor(amount, SPENDING_SCALE);
  if (units === null) throw new Error(`not a decimal amount of at most ${SPENDING_SCALE} places: ${amount}`);
  return units;
}

/** The shortest decimal string of `units` ("100", "0.5"): how limits and amounts are answered. */
export function fromUnits(units: bigint): string {
  const digits = units.toString().padStart(SPENDING_SCALE + 1, "0");
  const whole = digits.slice(0, -SPENDING_SCALE);
  const fraction = digits.slice(-SPENDING_SCALE).replace(/0+$/, "");
  return fraction ? `${whole}.${fraction}` : whole;
}

/** The same amount in its shortest form (a numeric column's "100.000000000000000000" is "100"). */
export const normaliseAmount = (amount: string): string => fromUnits(toUnits(amount));

/** Minor units of an asset with `decimals` places as a decimal string (a custody transfer's or a mint's amountMinor). */
export function minorToDecimal(amountMinor: string, decimals: number): string {
  return fromUnits(BigInt(amountMinor) * 10n ** BigInt(SPENDING_SCALE - Math.min(decimals, SPENDING_SCALE)));
}

/** The limits a key is created with, checked and normalised: each asset once, at least one limit each (the contract asks
 * for it too). A limit of 0 forbids moving the asset. */
export function checkSpendingLimits(input: readonly SpendingLimitInput[] | undefined): SpendingLimit[] {
  const seen = new Set<string>();
  return (input ?? []).map((limit, index) => {
    if (seen.has(limit.asset)) throw validationError(`/body/spendingLimits/${index}/asset`, `${limit.asset} is listed twice`);
    seen.add(limit.asset);
    if (limit.perCall === undefined && limit.per24h === undefined) {
      throw validationError(`/body/spendingLimits/${index}`, "needs perCall, per24h or both");
    }
    return {
      asset: limit.asset,
      perCall: limit.perCall === undefined ? null : normaliseAmount(limit.perCall),
      per24h: limit.per24h === undefined ? null : normaliseAmount(limit.per24h),
    };
  });
}

/** The refusal of an asset a key with limits does not list: its maximum there is 0. */
export const unlistedAsset = (asset: string, requested: bigint): SpendingLimitExceeded => ({
  asset,
  limit: "perCall",
  maximum: "0",
  used: "0",
  requested: fromUnits(requested),
});

/** Which limit a call of `requested` breaks given what the key `used` in the last 24 hours (null: it fits). A key with
 * limits has none on an asset it does not list (`limit` undefined): its maximum there is 0. */
export function exceededLimit(
  asset: string,
  limit: { perCall: string | null; per24h: string | null } | undefined,
  used: bigint,
  requested: bigint,
): SpendingLimitExceeded | null {
  const report = (which: "perCall" | "per24h", maximum: bigint) => ({
    asset,
    limit: which,
    maximum: fromUnits(maximum),
    used: fromUnits(used),
    requested: fromUnits(requested),
  });
  if (!limit) return unlistedAsset(asset, requested);
  if (limit.perCall !== null && requested > toUnits(limit.perCall)) return report("perCall", toUnits(limit.perCall));
  if (limit.per24h !== null && used + requested > toUnits(limit.per24h)) return report("per24h", toUnits(limit.per24h));
  return null;
}

/** The 403 of a call past a limit, in every surface's shape (the v1 body carries `spendingLimit` too). */
export function spendingLimitError(exceeded: SpendingLimitExceeded): ServiceError {
  const what =
    exceeded.maximum === "0" && exceeded.limit === "perCall"
      ? `This API key has spending limits and none for ${exceeded.asset}: it may not move ${exceeded.asset}`
      : exceeded.limit === "perCall"
        ? `${exceeded.requested} ${exceeded.asset} is over this API key's per-call limit of ${exceeded.maximum}`
        : `${exceeded.requested} ${exceeded.asset} would take this API key past its 24-hour limit of ${exceeded.maximum} (${exceeded.used} used)`;
  return new ServiceError("FORBIDDEN", what, { extensions: { spendingLimit: exceeded } });
}
