// Card limits and the authorization decision at their edges (CardLimits and DeclineReason in
// openapi/components/schemas/cards.yaml): `perAuthorization ≤ daily ≤ monthly` where given, an amount exactly at a
// limit is authorized and one minor unit above is declined, checks run in the documented order. The order itself and
// the simple cases are in test/unit/cards.test.ts.
import { describe, expect, it } from "vitest";
import { type AuthorizationFacts, decideAuthorization } from "../../../../server/domain/cards/decide-authorization.ts";
import { validateCardLimits } from "../../../../server/domain/cards/validate-card-limits.ts";
import { ServiceError } from "../../../../server/errors/service-error.ts";

describe("validateCardLimits: perAuthorization ≤ daily ≤ monthly where given", () => {
  it.each([
    ["all three equal", { perAuthorization: "100", daily: "100", monthly: "100" }],
    ["strictly increasing", { perAuthorization: "10", daily: "100", monthly: "1000" }],
    ["zero limits (block all spend)", { perAuthorization: "0", daily: "0", monthly: "0" }],
    ["only monthly", { monthly: "5" }],
    ["perAuthorization and monthly, daily omitted", { perAuthorization: "5", monthly: "5" }],
    ["daily and monthly equal at the last decimal", { daily: "1.000001", monthly: "1.000001" }],
    ["categories only", { allowedCategories: ["5411"], blockedCategories: ["7995"] }],
    ["nothing", {}],
  ])("accepts %s", (_name, limits) => {
    expect(() => validateCardLimits(limits, "USDC")).not.toThrow();
  });

  it.each([
    [
      "daily one micro-unit above monthly",
      { daily: "1.000001", monthly: "1" },
      "/body/limits/daily",
      "limits.daily must not exceed limits.monthly",
    ],
    [
      "perAuthorization one micro-unit above daily",
      { perAuthorization: "1.000001", daily: "1", monthly: "5" },
      "/body/limits/perAuthorization",
      "limits.perAuthorization must not exceed limits.daily",
    ],
    [
      "perAuthorization above monthly with daily omitted",
      { perAuthorization: "6", monthly: "5" },
      "/body/limits/perAuthorization",
      "limits.perAuthorization must not exceed limits.monthly",
    ],
  ])("refuses %s with 422 at %s", (_name, limits, path, message) => {
    try {
      validateCardLimits(limits, "USDC");
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ServiceError);
      expect((error as ServiceError).code).toBe("CARD_REQUEST_REJECTED");
      expect((error as ServiceError).message).toBe(message);
      expect((error as ServiceError).errors?.[0]?.path).toBe(path);
    }
  });

  it("names the body field the limits came from", () => {
    expect(() => validateCardLimits({ daily: "2", monthly: "1" }, "USDC", "cardLimits")).toThrow("cardLimits.daily must not exceed");
  });

  it("compares at the asset's precision: 18 decimals for DAI", () => {
    expect(() => validateCardLimits({ daily: "1.000000000000000001", monthly: "1" }, "DAI")).toThrow(ServiceError);
    expect(validateCardLimits({ daily: "1", monthly: "1.000000000000000001" }, "DAI")).toMatchObject({
      daily: 10n ** 18n,
      monthly: 10n ** 18n + 1n,
    });
  });
});

describe("decideAuthorization at the limits", () => {
  const facts = (overrides: Partial<AuthorizationFacts>): AuthorizationFacts => ({
    cardStatus: "active",
    limits: {},
    merchantCategory: "5411",
    amountMinor: 10n,
    authorizedTodayMinor: 0n,
    authorizedThisMonthMinor: 0n,
    fundsMinor: 1_000n,
    ...overrides,
  });

  it.each<[string, Partial<AuthorizationFacts>, string | null]>([
    ["per authorization: exactly at", { limits: { perAuthorization: 10n } }, null],
    ["per authorization: one over", { amountMinor: 11n, limits: { perAuthorization: 10n } }, "limit_per_authorization"],
    ["per authorization: zero limit declines any amount", { amountMinor: 1n, limits: { perAuthorization: 0n } }, "limit_per_authorization"],
    ["daily: window plus amount exactly at", { authorizedTodayMinor: 90n, limits: { daily: 100n } }, null],
    ["daily: one over", { authorizedTodayMinor: 91n, limits: { daily: 100n } }, "limit_daily"],
    ["monthly: exactly at", { authorizedThisMonthMinor: 90n, limits: { monthly: 100n } }, null],
    ["monthly: one over", { authorizedThisMonthMinor: 91n, limits: { monthly: 100n } }, "limit_monthly"],
    [
      "daily is checked before monthly",
      { authorizedTodayMinor: 95n, authorizedThisMonthMinor: 95n, limits: { daily: 100n, monthly: 100n } },
      "limit_daily",
    ],
    [
      "monthly counts what earlier days authorized",
      { authorizedTodayMinor: 0n, authorizedThisMonthMinor: 995n, limits: { daily: 100n, monthly: 1_000n } },
      "limit_monthly",
    ],
    ["funds: exactly the amount", { fundsMinor: 10n }, null],
    ["funds: one short", { fundsMinor: 9n }, "insufficient_funds"],
    ["an empty allowed list allows nothing", { limits: { allowedCategories: [] } }, "merchant_category_not_allowed"],
    ["an empty blocked list blocks nothing", { limits: { blockedCategories: [] } }, null],
    ["a limit is checked before funds", { fundsMinor: 0n, limits: { daily: 5n } }, "limit_daily"],
  ])("%s", (_name, overrides, expected) => {
    expect(decideAuthorization(facts(overrides))).toBe(expected);
  });
});
