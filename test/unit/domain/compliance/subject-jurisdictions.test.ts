// What screening and policy look at in a subject: every jurisdiction it touches (the request's jurisdiction fields and
// each party's country), each reason once, and a compliance/screen or policy/evaluate body with something to check.
// The sanctions and policy matching themselves are covered in test/unit/compliance-*.test.ts.
import { describe, expect, it } from "vitest";
import { dedupeReasons } from "../../../../server/domain/compliance/dedupe-reasons.ts";
import { subjectFromRequest } from "../../../../server/domain/compliance/subject-from-request.ts";
import { subjectJurisdictions } from "../../../../server/domain/compliance/subject-jurisdictions.ts";
import type { ComplianceReason, ComplianceSubject } from "../../../../server/domain/compliance/types.ts";
import { formatUsd36, toUsdMinor36 } from "../../../../server/domain/compliance/usd-rates.ts";
import { ServiceError } from "../../../../server/errors/service-error.ts";

describe("subjectJurisdictions", () => {
  it.each<[string, Omit<ComplianceSubject, "operation">, Array<[string, string]>]>([
    ["none", {}, []],
    [
      "every jurisdiction field, in order",
      {
        jurisdictions: {
          jurisdiction: ["DE", "FR-75"],
          operatorJurisdiction: "IE",
          senderJurisdiction: "US-NY",
          receiverJurisdiction: "GB",
        },
      },
      [
        ["jurisdiction[0]", "DE"],
        ["jurisdiction[1]", "FR-75"],
        ["operatorJurisdiction", "IE"],
        ["senderJurisdiction", "US-NY"],
        ["receiverJurisdiction", "GB"],
      ],
    ],
    [
      "party countries, named by role; parties without a country add nothing",
      {
        parties: [
          { role: "sender", country: "DE" },
          { role: "receiver", name: "Acme" },
          { role: "beneficiary", country: "KP" },
        ],
      },
      [
        ["sender country", "DE"],
        ["beneficiary country", "KP"],
      ],
    ],
    [
      "empty strings are not jurisdictions",
      { jurisdictions: { operatorJurisdiction: "" }, parties: [{ role: "sender", country: "" }] },
      [],
    ],
  ])("%s", (_name, subject, expected) => {
    expect(subjectJurisdictions({ operation: "test", ...subject }).map((j) => [j.field, j.code])).toEqual(expected);
  });
});

describe("dedupeReasons", () => {
  const r = (stage: ComplianceReason["stage"], rule: string, message: string): ComplianceReason => ({ stage, rule, message });
  it.each<[string, ComplianceReason[], ComplianceReason[]]>([
    ["nothing", [], []],
    [
      "an exact repeat is dropped, the first kept",
      [r("policy", "a", "m"), r("policy", "b", "m"), r("policy", "a", "m")],
      [r("policy", "a", "m"), r("policy", "b", "m")],
    ],
    [
      "another message is another reason",
      [r("policy", "a", "m1"), r("policy", "a", "m2")],
      [r("policy", "a", "m1"), r("policy", "a", "m2")],
    ],
    [
      "another stage is another reason",
      [r("screening", "a", "m"), r("policy", "a", "m")],
      [r("screening", "a", "m"), r("policy", "a", "m")],
    ],
  ])("%s", (_name, reasons, expected) => {
    expect(dedupeReasons(reasons)).toEqual(expected);
  });
});

describe("subjectFromRequest: a body with nothing to check is 400", () => {
  type Body = Parameters<typeof subjectFromRequest>[0];
  const error = (body: Body, countAmount: boolean) => {
    try {
      subjectFromRequest(body, "test", { countAmount });
      return null;
    } catch (e) {
      return e instanceof ServiceError ? `${e.code} ${e.errors?.[0]?.path}` : String(e);
    }
  };

  it.each<[string, Body, boolean, string | null]>([
    ["an empty body (screening)", {} as Body, false, "VALIDATION_ERROR /body"],
    ["an empty body (policy)", {} as Body, true, "VALIDATION_ERROR /body"],
    ["an amount alone is nothing to screen", { amount: "10", currency: "USD" } as Body, false, "VALIDATION_ERROR /body"],
    ["an amount alone is something to evaluate", { amount: "10", currency: "USD" } as Body, true, null],
    ["an amount without a currency is nothing to evaluate", { amount: "10" } as Body, true, "VALIDATION_ERROR /body"],
    ["an empty jurisdiction list is nothing", { jurisdiction: [] } as Body, false, "VALIDATION_ERROR /body"],
    ["one jurisdiction", { receiverJurisdiction: "DE" } as Body, false, null],
    ["a party with a name", { parties: [{ role: "sender", name: "Acme" }] } as Body, false, null],
    [
      "a party with neither name nor country",
      { parties: [{ role: "sender", name: "A" }, { role: "receiver" }] } as Body,
      false,
      "VALIDATION_ERROR /body/parties/1",
    ],
  ])("%s", (_name, body, countAmount, expected) => {
    expect(error(body, countAmount)).toBe(expected);
  });

  it("keeps only what was sent", () => {
    expect(
      subjectFromRequest({ senderJurisdiction: "DE", amount: "5", currency: "EUR" } as Body, "evaluatePolicy", { countAmount: true }),
    ).toEqual({
      operation: "evaluatePolicy",
      jurisdictions: { senderJurisdiction: "DE" },
      amount: { value: "5", currency: "EUR" },
    });
  });
});

describe("USD display of the policy amount: truncated to 18 places, never rounded up", () => {
  it.each([
    ["1", "JPY", "0.0067"],
    ["0.000000000000000001", "JPY", "0.00"], // 6.7e-21 USD truncates to zero
    ["0.000000000000000149", "JPY", "0.00"], // 9.983e-19 USD: just under one unit of the 18th place
    ["0.000000000000000150", "JPY", "0.000000000000000001"], // 1.005e-18 USD
    ["3", "HKD", "0.384"],
  ])("%s %s → %s USD", (value, currency, usd) => {
    const result = toUsdMinor36(value, currency);
    expect(result.kind).toBe("ok");
    if (result.kind === "ok") expect(formatUsd36(result.usdMinor)).toBe(usd);
  });
});
