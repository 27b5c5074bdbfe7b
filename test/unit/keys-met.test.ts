// The keys an instance has met (server/db/unit-of-work/keys-met.ts): which keyed writes read their key first.
import { describe, expect, it } from "vitest";
import type { IdempotencyClaim } from "../../server/db/unit-of-work/index.ts";
import { KeysMet } from "../../server/db/unit-of-work/index.ts";

const claim = (key: string, apiKeyId = "key_a", organizationId = "org_a"): IdempotencyClaim => ({
  organizationId,
  apiKeyId,
  method: "POST",
  path: "/api/v1/payments",
  key,
  fingerprint: "f",
});

describe("KeysMet", () => {
  it("answers false the first time a key is met and true after", () => {
    const met = new KeysMet();
    expect(met.metBefore(claim("k1"))).toBe(false);
    expect(met.metBefore(claim("k1"))).toBe(true);
    expect(met.metBefore(claim("k2"))).toBe(false);
  });

  it("tells keys apart by API key and organization, as the key's record does", () => {
    const met = new KeysMet();
    met.metBefore(claim("k1", "key_a", "org_a"));
    expect(met.metBefore(claim("k1", "key_b", "org_a"))).toBe(false);
    expect(met.metBefore(claim("k1", "key_a", "org_b"))).toBe(false);
  });

  it("forgets the oldest key beyond its limit, and keeps the newer ones", () => {
    const met = new KeysMet(3);
    for (const key of ["k1", "k2", "k3", "k4"]) met.metBefore(claim(key));
    expect(met.metBefore(claim("k4"))).toBe(true);
    expect(met.metBefore(claim("k3"))).toBe(true);
    expect(met.metBefore(claim("k2"))).toBe(true);
    // k1 went when k4 came; meeting it again makes room by forgetting k2, the oldest now.
    expect(met.metBefore(claim("k1"))).toBe(false);
    expect(met.metBefore(claim("k2"))).toBe(false);
  });

  it("remembers nothing with a limit of 0, and nothing after clear()", () => {
    const none = new KeysMet(0);
    none.metBefore(claim("k1"));
    expect(none.metBefore(claim("k1"))).toBe(false);
    const met = new KeysMet();
    met.metBefore(claim("k1"));
    met.clear();
    expect(met.metBefore(claim("k1"))).toBe(false);
  });
});
