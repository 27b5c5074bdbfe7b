// The address a per-client budget (authentication failures) is keyed by.
import { describe, expect, it } from "vitest";
import { budgetAddress } from "../../server/rate-limit/client-address.ts";

describe("budgetAddress", () => {
  it("keeps IPv4, unwraps IPv4-mapped IPv6 and groups other IPv6 addresses by /64", () => {
    expect(budgetAddress("10.0.0.1")).toBe("10.0.0.1");
    expect(budgetAddress("::ffff:127.0.0.1")).toBe("127.0.0.1");
    expect(budgetAddress("2001:db8:1:2:3:4:5:6")).toBe("2001:db8:1:2::/64");
    expect(budgetAddress("2001:0db8:0001:0002:ffff::1")).toBe("2001:db8:1:2::/64");
    expect(budgetAddress("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(budgetAddress("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    expect(budgetAddress(undefined)).toBe("unknown");
  });
});
