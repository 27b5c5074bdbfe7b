import { describe, expect, it } from "vitest";
import { matchSanctions } from "../../server/domain/compliance/match-sanctions.ts";
import type { ComplianceSubject } from "../../server/domain/compliance/types.ts";
import { jurisdictionMatches, normalizeAddress, normalizeName } from "../../server/lib/compliance/normalize.ts";
import { SANDBOX_SCREENING_LIST } from "../../server/lib/compliance/sandbox-screening-list.ts";

const EVM_A = "0x7F367cC41522cE07553e823bf3be79A889DEbe1B";
const EVM_B = "0x8589427373D6D84E98730D7795D8f6f8731FDA16";
const SOL = "GEfMpAf3au2neHdsQ7nPg3pQ99P51XaybPrgCYHNc6k2";
const CLEAN_EVM = "0x52908400098527886E0F7030069857D2E4169EE7";

const rules = (subject: Omit<ComplianceSubject, "operation">) =>
  matchSanctions({ operation: "test", ...subject }, SANDBOX_SCREENING_LIST).map((r) => r.rule);

describe("normalisation", () => {
  it.each([
    ["Ivan Sanctioned", "ivan sanctioned"],
    ["  IVAN   Sanctioned ", "ivan sanctioned"],
    ["Iván Sánctioned", "ivan sanctioned"],
    ["Ivan\tSANCTIONÉD", "ivan sanctioned"],
    ["Zoë Ørsted", "zoe ørsted"],
  ])("normalizeName(%j) = %j", (input, expected) => {
    expect(normalizeName(input)).toBe(expected);
  });

  it("normalizeAddress lower-cases and trims", () => {
    expect(normalizeAddress(` ${EVM_A} `)).toBe(EVM_A.toLowerCase());
  });

  it.each([
    ["IR", "IR", true],
    ["IR-07", "IR", true],
    ["ir-07", "IR", true],
    ["IRL", "IR", false],
    ["IQ", "IR", false],
    ["UA", "UA-43", false],
    ["UA-43", "UA-43", true],
    ["UA-32", "UA-43", false],
    ["US-NY", "US", true],
    ["US", "US-NY", false],
  ])("jurisdictionMatches(%s, listed %s) = %s", (code, listed, expected) => {
    expect(jurisdictionMatches(code, listed)).toBe(expected);
  });
});

describe("matchSanctions (sandbox list)", () => {
  it.each<[string, Omit<ComplianceSubject, "operation">, string[]]>([
    [
      "a clean subject",
      { parties: [{ role: "sender", name: "Acme Trading GmbH", country: "DE" }], addresses: [{ role: "receiver", address: CLEAN_EVM }] },
      [],
    ],
    ["a listed EVM address (checksummed)", { addresses: [{ role: "receiver", chain: "ethereum", address: EVM_A }] }, ["sanctions.address"]],
    ["a listed EVM address in lower case", { addresses: [{ role: "receiver", address: EVM_B.toLowerCase() }] }, ["sanctions.address"]],
    [
      "a listed EVM address on another EVM chain",
      { addresses: [{ role: "receiver", chain: "base", address: EVM_B.toUpperCase().replace("0X", "0x") }] },
      ["sanctions.address"],
    ],
    ["the listed Solana address", { addresses: [{ role: "receiver", chain: "solana", address: SOL }] }, ["sanctions.address"]],
    ["a prefix of a listed address", { addresses: [{ role: "receiver", address: EVM_A.slice(0, 41) }] }, []],
    [
      "the provider-failure magic address (not listed)",
      { addresses: [{ role: "receiver", address: "0x000000000000000000000000000000000000dEaD" }] },
      [],
    ],
    ["a listed name", { parties: [{ role: "receiver", name: "Blocked Person" }] }, ["sanctions.name"]],
    ["a listed name with accents, case and spacing", { parties: [{ role: "receiver", name: "  ivan   SANCTIONÉD " }] }, ["sanctions.name"]],
    ["a name containing a listed name", { parties: [{ role: "receiver", name: "Blocked Person Ltd" }] }, []],
    [
      "a party country in a sanctioned jurisdiction",
      { parties: [{ role: "receiver", name: "Ali", country: "IR" }] },
      ["sanctions.jurisdiction"],
    ],
    ["jurisdiction[] with KP", { jurisdictions: { jurisdiction: ["DE", "KP"] } }, ["sanctions.jurisdiction"]],
    ["operatorJurisdiction CU", { jurisdictions: { operatorJurisdiction: "CU" } }, ["sanctions.jurisdiction"]],
    ["senderJurisdiction SY", { jurisdictions: { senderJurisdiction: "SY" } }, ["sanctions.jurisdiction"]],
    ["receiverJurisdiction IR-07 (subdivision)", { jurisdictions: { receiverJurisdiction: "IR-07" } }, ["sanctions.jurisdiction"]],
    ["Crimea (UA-43)", { jurisdictions: { receiverJurisdiction: "UA-43" } }, ["sanctions.jurisdiction"]],
    ["Ukraine outside the listed regions", { jurisdictions: { receiverJurisdiction: "UA-30", senderJurisdiction: "UA" } }, []],
    [
      "several hits at once",
      {
        addresses: [{ role: "receiver", address: EVM_A }],
        parties: [{ role: "sender", name: "Maria Embargo" }],
        jurisdictions: { senderJurisdiction: "KP" },
      },
      ["sanctions.address", "sanctions.name", "sanctions.jurisdiction"],
    ],
  ])("%s", (_name, subject, expected) => {
    expect(rules(subject)).toEqual(expected);
  });

  it("names the field in each reason and removes duplicates", () => {
    const reasons = matchSanctions(
      {
        operation: "test",
        addresses: [
          { role: "receiver", address: EVM_A },
          { role: "receiver", address: EVM_A },
        ],
        jurisdictions: { jurisdiction: ["IR-07"], receiverJurisdiction: "IR" },
      },
      SANDBOX_SCREENING_LIST,
    );
    expect(reasons).toEqual([
      { stage: "screening", rule: "sanctions.address", message: `receiver address ${EVM_A} is on the sandbox sanctions list` },
      { stage: "screening", rule: "sanctions.jurisdiction", message: "jurisdiction[0] IR-07 is in sanctioned jurisdiction IR (Iran)" },
      { stage: "screening", rule: "sanctions.jurisdiction", message: "receiverJurisdiction IR is in sanctioned jurisdiction IR (Iran)" },
    ]);
  });
});
