// The stress-test arithmetic, exact in BigInt (formulas documented under StressScenario). Ratios and percentages are
// decimal strings turned into fractions; minor-unit results round toward zero; coverage has 6 decimals, rounded down.

export interface Fraction {
  num: bigint;
  den: bigint;
}

/** "1.02" → 102/100. The caller has validated the format. */
export function parseDecimal(value: string): Fraction {
  const [whole = "0", fraction = ""] = value.split(".");
  return { num: BigInt(whole + fraction), den: 10n ** BigInt(fraction.length) };
}

const percent = (value: string): Fraction => {
  const f = parseDecimal(value);
  return { num: f.num, den: f.den * 100n };
};

const mul = (amount: bigint, f: Fraction) => (amount * f.num) / f.den;
const min = (a: bigint, b: bigint) => (a < b ? a : b);

export interface StressInputs {
  totalSupplyMinor: bigint;
  reserveRatio: string;
  redemptionShockPercent: string;
  reserveHaircutPercent: string;
  horizonDays: number;
}

export interface StressResults {
  reservesBeforeShockMinor: string;
  reserveHaircutMinor: string;
  redemptionsMinor: string;
  redemptionsPaidMinor: string;
  averageDailyRedemptionsMinor: string;
  reservesAfterShockMinor: string;
  supplyAfterShockMinor: string;
  coverageRatioAfterShock: string | null;
  solvent: boolean;
  shortfallMinor: string;
}

export function runStress(inputs: StressInputs): StressResults {
  const S = inputs.totalSupplyMinor;
  const R = mul(S, parseDecimal(inputs.reserveRatio));
  const H = mul(R, percent(inputs.reserveHaircutPercent));
  const D = mul(S, percent(inputs.redemptionShockPercent));
  const paid = min(D, R - H);
  const reservesAfter = R - H - paid;
  const supplyAfter = S - paid;
  const coverage = supplyAfter === 0n ? null : formatScaled((reservesAfter * 1_000_000n) / supplyAfter, 6);
  return {
    reservesBeforeShockMinor: R.toString(),
    reserveHaircutMinor: H.toString(),
    redemptionsMinor: D.toString(),
    redemptionsPaidMinor: paid.toString(),
    averageDailyRedemptionsMinor: (D / BigInt(inputs.horizonDays)).toString(),
    reservesAfterShockMinor: reservesAfter.toString(),
    supplyAfterShockMinor: supplyAfter.toString(),
    coverageRatioAfterShock: coverage,
    solvent: reservesAfter >= supplyAfter,
    shortfallMinor: (supplyAfter > reservesAfter ? supplyAfter - reservesAfter : 0n).toString(),
  };
}

function formatScaled(value: bigint, decimals: number): string {
  const digits = value.toString().padStart(decimals + 1, "0");
  return `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
}
