// The visible state of an approval request (ApprovalStatus in openapi/components/schemas/approvals.yaml): `expired` is
// derived, never stored — an undecided request, or an approved one not yet used, past `expiresAt` (72 h after
// creation). A used approval stays `approved`; a rejected one stays `rejected`. And the payload binding: SHA-256 of the
// canonical JSON, so key order does not matter but any value does.
import { describe, expect, it } from "vitest";
import { APPROVAL_TTL_HOURS, type ApprovalStatus, approvalStatusOf } from "../../../../server/domain/approvals/approval-dto.ts";
import { canonicalApprovalPayload } from "../../../../server/domain/approvals/approval-payload.ts";

const CREATED = Date.parse("2026-11-22T10:00:00.000Z");
const EXPIRES = new Date(CREATED + APPROVAL_TTL_HOURS * 3_600_000);
const at = (offsetMs: number) => new Date(EXPIRES.getTime() + offsetMs);
const USED = new Date(CREATED + 3_600_000);

describe("approvalStatusOf", () => {
  it("expires 72 hours after creation", () => {
    expect(APPROVAL_TTL_HOURS).toBe(72);
    expect(EXPIRES.toISOString()).toBe("2026-11-25T10:00:00.000Z");
  });

  it.each<[string, string, Date | null, Date, ApprovalStatus]>([
    ["pending, a millisecond before expiry", "pending", null, at(-1), "pending"],
    ["pending, exactly at expiry", "pending", null, at(0), "expired"],
    ["pending, after expiry", "pending", null, at(1), "expired"],
    ["approved and unused, before expiry", "approved", null, at(-1), "approved"],
    ["approved and unused, exactly at expiry", "approved", null, at(0), "expired"],
    ["approved and used, long after expiry", "approved", USED, at(86_400_000), "approved"],
    ["rejected, before expiry", "rejected", null, at(-1), "rejected"],
    ["rejected, after expiry (final)", "rejected", null, at(1), "rejected"],
  ])("%s → %s", (_name, status, consumedAt, now, expected) => {
    expect(approvalStatusOf({ status, expiresAt: EXPIRES, consumedAt }, now)).toBe(expected);
  });
});

describe("canonicalApprovalPayload", () => {
  const base = { custodyTransferId: "ctr_1", asset: "USDC", amountMinor: "2500000", destination: "0xabc" };
  const hash = (payload: unknown) => canonicalApprovalPayload(payload).hash;

  it.each<[string, unknown, boolean]>([
    ["the same payload", { ...base }, true],
    [
      "the same members in another order",
      { destination: "0xabc", amountMinor: "2500000", asset: "USDC", custodyTransferId: "ctr_1" },
      true,
    ],
    ["an undefined member (dropped)", { ...base, note: undefined }, true],
    ["another amount", { ...base, amountMinor: "2500001" }, false],
    ["an amount as a number instead of a string", { ...base, amountMinor: 2500000 }, false],
    ["another destination case", { ...base, destination: "0xABC" }, false],
    ["an extra member", { ...base, note: null }, false],
    ["a missing member", { custodyTransferId: "ctr_1", asset: "USDC", amountMinor: "2500000" }, false],
  ])("%s: same hash %s", (_name, payload, same) => {
    expect(hash(payload) === hash(base)).toBe(same);
  });

  it("sorts nested keys too and stores the canonical JSON", () => {
    const one = canonicalApprovalPayload({ b: { y: 1, x: [2, { d: 1, c: 2 }] }, a: "s" });
    expect(one.json).toEqual({ a: "s", b: { x: [2, { c: 2, d: 1 }], y: 1 } });
    expect(JSON.stringify(one.json)).toBe('{"a":"s","b":{"x":[2,{"c":2,"d":1}],"y":1}}');
    expect(one.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(canonicalApprovalPayload({ a: "s", b: { x: [2, { c: 2, d: 1 }], y: 1 } }).hash).toBe(one.hash);
    // array order is meaningful
    expect(canonicalApprovalPayload({ a: "s", b: { x: [{ c: 2, d: 1 }, 2], y: 1 } }).hash).not.toBe(one.hash);
  });
});
