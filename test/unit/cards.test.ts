// Card domain rules that need no database: the authorization decision order, limit validation, the simulator's magic
// values and deterministic card details, and which database errors count as transient conflicts.
import { describe, expect, it } from "vitest";
import { type AuthorizationFacts, decideAuthorization } from "../../server/domain/cards/decide-authorization.ts";
import { isTransientConflict } from "../../server/domain/cards/is-transient-conflict.ts";
import { validateCardLimits } from "../../server/domain/cards/validate-card-limits.ts";
import { ServiceError } from "../../server/errors/service-error.ts";
import { type CardIssuerContext, CardIssuerError } from "../../server/providers/capabilities/card-issuing.ts";
import { ProviderExecutionError } from "../../server/providers/provider-adapter.ts";
import { cardIssuanceSimulator, simulatedCardIssuer } from "../../server/providers/simulators/card-issuance-simulator.ts";

const facts = (overrides: Partial<AuthorizationFacts> = {}): AuthorizationFacts => ({
  cardStatus: "active",
  limits: {},
  merchantCategory: "5411",
  amountMinor: 10n,
  authorizedTodayMinor: 0n,
  authorizedThisMonthMinor: 0n,
  fundsMinor: 100n,
  ...overrides,
});

describe("decideAuthorization", () => {
  it.each<[string, Partial<AuthorizationFacts>, string | null]>([
    ["approves within funds and limits", {}, null],
    ["approves exactly the available funds", { amountMinor: 100n }, null],
    ["frozen first, even when everything else fails too", { cardStatus: "frozen", amountMinor: 1000n }, "card_frozen"],
    ["deactivated", { cardStatus: "deactivated" }, "card_deactivated"],
    [
      "blocked category before allowed",
      { limits: { blockedCategories: ["5411"], allowedCategories: ["5411"] } },
      "merchant_category_blocked",
    ],
    ["category not allowed", { limits: { allowedCategories: ["5812"] } }, "merchant_category_not_allowed"],
    ["per-authorization limit before funds", { limits: { perAuthorization: 9n }, fundsMinor: 0n }, "limit_per_authorization"],
    ["exactly the per-authorization limit", { limits: { perAuthorization: 10n } }, null],
    ["daily window", { limits: { daily: 15n }, authorizedTodayMinor: 6n }, "limit_daily"],
    ["daily window, exactly full", { limits: { daily: 15n }, authorizedTodayMinor: 5n }, null],
    ["monthly window", { limits: { monthly: 15n }, authorizedThisMonthMinor: 6n }, "limit_monthly"],
    ["insufficient funds last", { fundsMinor: 9n }, "insufficient_funds"],
  ])("%s", (_name, overrides, expected) => {
    expect(decideAuthorization(facts(overrides))).toBe(expected);
  });
});

describe("validateCardLimits", () => {
  it("parses amounts at the funding asset's precision", () => {
    expect(validateCardLimits({ perAuthorization: "1.5", daily: "2", monthly: "2.000001" }, "USDC")).toMatchObject({
      perAuthorization: 1_500_000n,
      daily: 2_000_000n,
      monthly: 2_000_001n,
    });
    expect(validateCardLimits({ daily: "0.000000000000000001" }, "DAI").daily).toBe(1n);
  });

  it.each([
    ["perAuthorization above daily", { perAuthorization: "2.00", daily: "1.00" }],
    ["daily above monthly", { daily: "2.00", monthly: "1.00" }],
    ["perAuthorization above monthly without daily", { perAuthorization: "2.00", monthly: "1.00" }],
    ["more decimals than USDC has", { daily: "1.0000001" }],
  ])("rejects %s with 422 CARD_REQUEST_REJECTED", (_name, limits) => {
    expect(() => validateCardLimits(limits, "USDC")).toThrow(ServiceError);
    try {
      validateCardLimits(limits, "USDC");
    } catch (error) {
      expect((error as ServiceError).code).toBe("CARD_REQUEST_REJECTED");
    }
  });
});

describe("card issuing simulator", () => {
  const ctx = (simulate?: CardIssuerContext["simulate"]): CardIssuerContext => ({
    config: {},
    now: new Date("2026-11-22T10:00:00Z"),
    simulate,
  });

  it("is the card_issuance simulator with the cards capability, and keeps its providers/invoke operation", () => {
    expect(cardIssuanceSimulator).toMatchObject({ category: "card_issuance", slug: "simulator", simulator: true });
    expect(cardIssuanceSimulator.capabilities?.cards).toBe(simulatedCardIssuer);
    expect(Object.keys(cardIssuanceSimulator.operations)).toEqual(["list_networks"]);
  });

  it("derives last4 and the expiry deterministically from the card id; never a card number", async () => {
    const input = { cardId: "card_abc", programmeReference: "sim_prg_1", network: "visa", cardholderName: "Jenny Rosen" };
    const one = await simulatedCardIssuer.issueCard(ctx(), input);
    const two = await simulatedCardIssuer.issueCard(ctx(), input);
    expect(one).toEqual(two);
    expect(one.last4).toMatch(/^[0-9]{4}$/);
    expect(one.expYear).toBe(2029);
    expect(Object.keys(one).sort()).toEqual(["expMonth", "expYear", "last4", "reference"]);
    expect((await simulatedCardIssuer.issueCard(ctx(), { ...input, cardId: "card_abd" })).reference).not.toBe(one.reference);
  });

  it.each([
    ["403.03", "PROVIDER_AUTHORIZATION_DENIED"],
    ["429.29", "PROVIDER_RATE_LIMITED"],
    ["501.01", "CARD_OPERATION_NOT_SUPPORTED"],
  ])("amount %s fails with %s on fund, authorize, capture and reverse", async (amount, code) => {
    for (const call of [
      () => simulatedCardIssuer.fundCard(ctx(), { reference: "r", amount, asset: "USDC" }),
      () => simulatedCardIssuer.authorize(ctx(), { reference: "r", amount, merchantCategory: "5411" }),
      () => simulatedCardIssuer.capture(ctx(), { reference: "r", authorizationId: "a", amount }),
      () => simulatedCardIssuer.reverse(ctx(), { reference: "r", authorizationId: "a", amount }),
    ]) {
      await expect(call()).rejects.toSatisfy((e) => e instanceof CardIssuerError && e.code === code);
    }
  });

  it("amount 666.66 and the PROVIDER_EXECUTION_FAILED header fail as a provider execution error", async () => {
    await expect(simulatedCardIssuer.fundCard(ctx(), { reference: "r", amount: "666.66", asset: "USDC" })).rejects.toBeInstanceOf(
      ProviderExecutionError,
    );
    await expect(simulatedCardIssuer.retrieveCard(ctx("PROVIDER_EXECUTION_FAILED"), { reference: "r" })).rejects.toBeInstanceOf(
      ProviderExecutionError,
    );
  });

  it("the Sandbox-Simulate-Error header fails every operation; other amounts succeed", async () => {
    await expect(simulatedCardIssuer.setCardStatus(ctx("CARD_REQUEST_REJECTED"), { reference: "r", status: "frozen" })).rejects.toSatisfy(
      (e) => e instanceof CardIssuerError && e.code === "CARD_REQUEST_REJECTED",
    );
    await expect(simulatedCardIssuer.fundCard(ctx(), { reference: "r", amount: "666.660", asset: "USDC" })).resolves.toBeUndefined();
  });
});

describe("isTransientConflict", () => {
  it.each([
    [{ code: "40001" }, true],
    [{ code: "P2034" }, true],
    [{ cause: { originalCode: "40P01" } }, true],
    [{ cause: { cause: { code: "55P03" } } }, true],
    [{ code: "23505" }, false],
    [new Error("boom"), false],
  ])("%j → %s", (error, expected) => {
    expect(isTransientConflict(error)).toBe(expected);
  });
});
