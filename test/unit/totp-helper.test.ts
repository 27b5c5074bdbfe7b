// The test helper's TOTP against RFC 6238's published SHA-1 vectors (secret "12345678901234567890", 8 digits there; the
// last 6 digits are what a 6-digit authenticator shows).
import { describe, expect, it } from "vitest";
import { freshTotp, totp } from "../helpers/totp.ts";

const SECRET = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"; // base32 of "12345678901234567890"

describe("totp (test helper)", () => {
  it.each([
    [59, "287082"],
    [1111111109, "081804"],
    [1234567890, "005924"],
    [2000000000, "279037"],
  ])("at %i s it is %s", (seconds, code) => {
    expect(totp(SECRET, seconds * 1000)).toBe(code);
  });

  it("never hands out the same code twice for a secret (the server accepts each once)", async () => {
    const codes = [await freshTotp(SECRET), await freshTotp(SECRET)];
    expect(new Set(codes).size).toBe(2);
  });
});
