// The stress-test arithmetic: exact BigInt, minor units rounded toward zero, coverage with 6 decimals rounded down.
import { describe, expect, it } from "vitest";
import { parseDecimal, runStress } from "../../server/domain/treasury/stress-math.ts";

describe("runStress", () => {
  it.each([
    // S, r, q, h, days → R, H, D, paid, R', S', coverage, solvent, shortfall
    [
      "1000000000000",
      "1.02",
      "25",
      "1",
      30,
      ["1020000000000", "10200000000", "250000000000", "250000000000", "759800000000", "750000000000", "1.013066", true, "0"],
    ],
    [
      "1000000000000",
      "1.02",
      "40",
      "5",
      14,
      ["1020000000000", "51000000000", "400000000000", "400000000000", "569000000000", "600000000000", "0.948333", false, "31000000000"],
    ],
    ["3", "1", "100", "0", 1, ["3", "0", "3", "3", "0", "0", null, true, "0"]],
    ["10", "0.333", "50", "33.3333", 7, ["3", "0", "5", "3", "0", "7", "0.000000", false, "7"]],
    [
      "999999999999999999999999999999",
      "1.000000000000000001",
      "0.0001",
      "0",
      365,
      [
        "1000000000000000000999999999998",
        "0",
        "999999999999999999999999",
        "999999999999999999999999",
        "999999000000000000999999999999",
        "999999000000000000000000000000",
        "1.000000",
        true,
        "0",
      ],
    ],
  ] as const)("S=%s r=%s q=%s%% h=%s%%", (S, r, q, h, days, expected) => {
    const out = runStress({
      totalSupplyMinor: BigInt(S),
      reserveRatio: r,
      redemptionShockPercent: q,
      reserveHaircutPercent: h,
      horizonDays: days,
    });
    const [R, H, D, paid, Ra, Sa, coverage, solvent, shortfall] = expected;
    expect(out).toMatchObject({
      reservesBeforeShockMinor: R,
      reserveHaircutMinor: H,
      redemptionsMinor: D,
      redemptionsPaidMinor: paid,
      reservesAfterShockMinor: Ra,
      supplyAfterShockMinor: Sa,
      coverageRatioAfterShock: coverage,
      solvent,
      shortfallMinor: shortfall,
    });
    expect(out.averageDailyRedemptionsMinor).toBe((BigInt(D) / BigInt(days)).toString());
  });

  it("parses decimals exactly", () => {
    expect(parseDecimal("1.02")).toEqual({ num: 102n, den: 100n });
    expect(parseDecimal("7")).toEqual({ num: 7n, den: 1n });
  });
});
