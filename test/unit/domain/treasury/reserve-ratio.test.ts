// Stress-test rules 2 and 3 (service description, "Stress-test rules"; StressScenario.reserveRatio): the scenario's
// ratio when supplied; otherwise the ratio of a connected reserve source; with neither, 424
// RESERVE_SOURCE_NOT_CONNECTED — never estimated. `simulated` is true only when a sandbox simulator supplied the ratio.
// Plus the solvency edges of the stress arithmetic (the worked cases are in test/unit/stress-math.test.ts).
import { describe, expect, it, vi } from "vitest";
import { chooseReserveRatio } from "../../../../server/domain/treasury/reserve-ratio.ts";
import { runStress } from "../../../../server/domain/treasury/stress-math.ts";
import { ServiceError } from "../../../../server/errors/service-error.ts";

const source = (reserveRatio: string | null, simulated = false) => ({
  report: { reserveRatio },
  label: simulated ? "token_issuance:simulator" : "token_issuance:acme",
  simulated,
});

describe("chooseReserveRatio", () => {
  it.each([
    [
      "the scenario's ratio wins over a connected source",
      "1.02",
      source("0.5"),
      { reserveRatio: "1.02", reserveRatioSource: "scenario", simulated: false },
    ],
    [
      "a scenario ratio of 0 is a ratio, not a missing one",
      "0",
      source("0.5"),
      { reserveRatio: "0", reserveRatioSource: "scenario", simulated: false },
    ],
    [
      "a connected source's ratio",
      undefined,
      source("0.98"),
      { reserveRatio: "0.98", reserveRatioSource: "token_issuance:acme", simulated: false },
    ],
    [
      "a simulator's ratio is marked simulated",
      undefined,
      source("1.5", true),
      { reserveRatio: "1.5", reserveRatioSource: "token_issuance:simulator", simulated: true },
    ],
  ])("%s", async (_name, scenario, connected, expected) => {
    const read = vi.fn(async () => connected);
    expect(await chooseReserveRatio(scenario, read)).toEqual(expected);
    expect(read).toHaveBeenCalledTimes(scenario === undefined ? 1 : 0);
  });

  it.each([
    ["no connected source", null, "RESERVE_SOURCE_NOT_CONNECTED"],
    ["a source that reports no ratio", source(null), "RESERVE_SOURCE_NOT_CONNECTED"],
    ["a ratio with an exponent", source("1e0"), "SOURCE_NOT_AVAILABLE"],
    ["a negative ratio", source("-1"), "SOURCE_NOT_AVAILABLE"],
    ["a ratio with 19 decimals", source("1.0000000000000000001"), "SOURCE_NOT_AVAILABLE"],
    ["a ratio of seven integer digits", source("1000000"), "SOURCE_NOT_AVAILABLE"],
  ])("%s → %s", async (_name, connected, code) => {
    await expect(chooseReserveRatio(undefined, async () => connected)).rejects.toSatisfy(
      (e) => e instanceof ServiceError && e.code === code,
    );
  });

  it.each([["0"], ["999999"], ["1.000000000000000001"]])("accepts the source ratio %s (the scenario's format)", async (ratio) => {
    expect((await chooseReserveRatio(undefined, async () => source(ratio))).reserveRatio).toBe(ratio);
  });
});

describe("runStress: solvency edges", () => {
  const stress = (S: bigint, r: string, q: string, h = "0") =>
    runStress({ totalSupplyMinor: S, reserveRatio: r, redemptionShockPercent: q, reserveHaircutPercent: h, horizonDays: 30 });

  it.each([
    // S, r, q%, h% → R', S', coverage, solvent, shortfall
    ["fully reserved, half redeemed: exactly solvent", 1000n, "1", "50", "0", ["500", "500", "1.000000", true, "0"]],
    ["one minor unit short", 1000n, "0.999", "50", "0", ["499", "500", "0.998000", false, "1"]],
    ["twice the supply in reserves", 3n, "2", "0", "0", ["6", "3", "2.000000", true, "0"]],
    ["coverage 2/3 rounds down to 0.666666", 3n, "0.67", "0", "0", ["2", "3", "0.666666", false, "1"]],
    ["a 100% haircut pays nothing", 1000n, "1", "10", "100", ["0", "1000", "0.000000", false, "1000"]],
    ["redemptions larger than reserves pay what there is", 1000n, "0.5", "80", "0", ["0", "500", "0.000000", false, "500"]],
  ] as const)("%s", (_name, S, r, q, h, [reservesAfter, supplyAfter, coverage, solvent, shortfall]) => {
    expect(stress(S, r, q, h)).toMatchObject({
      reservesAfterShockMinor: reservesAfter,
      supplyAfterShockMinor: supplyAfter,
      coverageRatioAfterShock: coverage,
      solvent,
      shortfallMinor: shortfall,
    });
  });
});
