// The keys an instance reads first although their writes are checked at close (server/db/unit-of-work/keys-to-read-first.ts).
import { describe, expect, it } from "vitest";
import { type IdempotencyClaim, KeysToReadFirst } from "../../server/db/unit-of-work/index.ts";

const claim = (key: string, apiKeyId = "key_a", organizationId = "org_a"): IdempotencyClaim => ({
  organizationId,
  apiKeyId,
  method: "POST",
  path: "/api/v1/payments",
  key,
  fingerprint: "f",
});

describe("KeysToReadFirst", () => {
  it("reads a key first once it was added, and no other", () => {
    const keys = new KeysToReadFirst();
    expect(keys.has(claim("k1"))).toBe(false);
    keys.add(claim("k1"));
    expect(keys.has(claim("k1"))).toBe(true);
    expect(keys.has(claim("k2"))).toBe(false);
  });

  it("tells keys apart by API key and organization, as the key's record does", () => {
    const keys = new KeysToReadFirst();
    keys.add(claim("k1", "key_a", "org_a"));
    expect(keys.has(claim("k1", "key_b", "org_a"))).toBe(false);
    expect(keys.has(claim("k1", "key_a", "org_b"))).toBe(false);
  });

  it("forgets the oldest key beyond its limit, and keeps the newer ones", () => {
    const keys = new KeysToReadFirst(3);
    for (const key of ["k1", "k2", "k3", "k4"]) keys.add(claim(key));
    expect(keys.has(claim("k1"))).toBe(false);
    for (const key of ["k2", "k3", "k4"]) expect(keys.has(claim(key))).toBe(true);
    keys.add(claim("k1"));
    expect(keys.has(claim("k2"))).toBe(false);
    expect(keys.has(claim("k1"))).toBe(true);
  });

  it("remembers nothing with a limit of 0, and nothing after clear()", () => {
    const none = new KeysToReadFirst(0);
    none.add(claim("k1"));
    expect(none.has(claim("k1"))).toBe(false);
    const keys = new KeysToReadFirst();
    keys.add(claim("k1"));
    keys.clear();
    expect(keys.has(claim("k1"))).toBe(false);
  });
});
