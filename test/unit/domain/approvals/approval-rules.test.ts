// Four-eyes decisions and single use (ApprovalStatus in openapi/components/schemas/approvals.yaml, docs/design.md
// "Approvals"): a second person — another `actor` of the organization holding the approval's scope — decides a pending,
// unexpired request; the requester can neither approve nor reject. An approved request is used once, by exactly the
// action and payload it was requested for, before it expires.
import { describe, expect, it } from "vitest";
import { canonicalApprovalPayload } from "../../../../server/domain/approvals/approval-payload.ts";
import { decisionRefusal, useRefusal } from "../../../../server/domain/approvals/approval-rules.ts";

const NOW = new Date("2026-11-23T10:00:00.000Z");
const LATER = new Date("2026-11-25T10:00:00.000Z");
const PAYLOAD = { custodyWalletId: "cw_1", label: "Ops", chain: "base", type: "mpc", policy: null };

const row = (overrides: Partial<Parameters<typeof decisionRefusal>[0]> = {}) => ({
  id: "apr_1",
  scope: "wallets:write",
  status: "pending",
  expiresAt: LATER,
  consumedAt: null,
  requestedByActor: "alice",
  action: "custody.wallets.create",
  payloadHash: canonicalApprovalPayload(PAYLOAD).hash,
  version: 1,
  ...overrides,
});
const bob = { actor: "bob", scopes: ["wallets:write"] };

type Refusal = [code: string, message: RegExp] | null;
const check = (error: { code: string; message: string } | null, expected: Refusal) => {
  if (expected === null) return expect(error).toBeNull();
  expect(error?.code).toBe(expected[0]);
  expect(error?.message).toMatch(expected[1]);
};

describe("decisionRefusal: approve and reject", () => {
  it.each<[string, Partial<ReturnType<typeof row>>, { actor: string; scopes: string[] }, number | undefined, Refusal]>([
    ["another actor with the scope decides a pending request", {}, bob, undefined, null],
    [
      "another key of the requester's actor cannot (four-eyes)",
      {},
      { actor: "alice", scopes: ["wallets:write"] },
      undefined,
      ["FORBIDDEN", /Four-eyes rule/],
    ],
    [
      "a read scope is not enough to decide",
      {},
      { actor: "bob", scopes: ["wallets:read"] },
      undefined,
      ["FORBIDDEN", /lacks the scope wallets:write/],
    ],
    [
      "another resource's write scope is not enough",
      {},
      { actor: "bob", scopes: ["payments:write"] },
      undefined,
      ["FORBIDDEN", /lacks the scope/],
    ],
    ["the scope is checked before the four-eyes rule", {}, { actor: "alice", scopes: [] }, undefined, ["FORBIDDEN", /lacks the scope/]],
    ["an approved request cannot be decided again", { status: "approved" }, bob, undefined, ["STATE_CONFLICT", /is approved/]],
    ["a rejected request is final", { status: "rejected" }, bob, undefined, ["STATE_CONFLICT", /is rejected/]],
    ["a request exactly at its expiry is expired", { expiresAt: NOW }, bob, undefined, ["STATE_CONFLICT", /is expired/]],
    ["a request a millisecond before expiry can be decided", { expiresAt: new Date(NOW.getTime() + 1) }, bob, undefined, null],
    ["expectedVersion matching", {}, bob, 1, null],
    ["expectedVersion stale", { version: 2 }, bob, 1, ["STATE_CONFLICT", /expectedVersion 1 does not match the current version 2/]],
  ])("%s", (_name, overrides, caller, expectedVersion, expected) => {
    for (const decision of ["approved", "rejected"] as const) {
      check(decisionRefusal(row(overrides), caller, decision, NOW, expectedVersion), expected);
    }
  });

  it("says which decision was refused", () => {
    const self = { actor: "alice", scopes: ["wallets:write"] };
    expect(decisionRefusal(row(), self, "approved", NOW)?.message).toMatch(/cannot approve their own/);
    expect(decisionRefusal(row(), self, "rejected", NOW)?.message).toMatch(/cannot reject their own/);
  });
});

describe("useRefusal: the guarded operation uses an approval once", () => {
  const approved = { status: "approved", requestedByActor: "alice" };
  const ACTION = "custody.wallets.create";

  it.each<[string, Partial<ReturnType<typeof row>>, { actor: string; scopes: string[] }, string, unknown, Refusal]>([
    ["approved, unused, same action and payload", approved, bob, ACTION, PAYLOAD, null],
    [
      "the requester may run it once another actor approved",
      approved,
      { actor: "alice", scopes: ["wallets:write"] },
      ACTION,
      PAYLOAD,
      null,
    ],
    [
      "the same payload with members in another order",
      approved,
      bob,
      ACTION,
      { policy: null, type: "mpc", chain: "base", label: "Ops", custodyWalletId: "cw_1" },
      null,
    ],
    ["a key without the scope", approved, { actor: "bob", scopes: ["wallets:read"] }, ACTION, PAYLOAD, ["FORBIDDEN", /lacks the scope/]],
    ["already used (single use)", { ...approved, consumedAt: NOW }, bob, ACTION, PAYLOAD, ["FORBIDDEN", /already used/]],
    ["still pending", {}, bob, ACTION, PAYLOAD, ["FORBIDDEN", /still pending/]],
    ["rejected", { status: "rejected" }, bob, ACTION, PAYLOAD, ["FORBIDDEN", /was rejected/]],
    [
      "approved but expired unused",
      { ...approved, expiresAt: NOW },
      bob,
      ACTION,
      PAYLOAD,
      ["FORBIDDEN", /expired at 2026-11-23T10:00:00.000Z/],
    ],
    ["another action", approved, bob, "custody.transfers.submit", PAYLOAD, ["FORBIDDEN", /another operation \(custody.wallets.create\)/]],
    ["another payload", approved, bob, ACTION, { ...PAYLOAD, label: "Ops 2" }, ["FORBIDDEN", /another payload/]],
    ["a payload with an extra member", approved, bob, ACTION, { ...PAYLOAD, note: "x" }, ["FORBIDDEN", /another payload/]],
  ])("%s", (_name, overrides, caller, action, payload, expected) => {
    check(useRefusal(row(overrides), caller, action, payload, NOW), expected);
  });
});
