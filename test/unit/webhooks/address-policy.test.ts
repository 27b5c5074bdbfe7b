// Where a webhook may be sent: address classification, the endpoint URL check per environment, and the pinned lookup
// that keeps a production delivery off private addresses even when DNS changes its answer.
import type { LookupAddress } from "node:dns";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../../server/config.ts";
import {
  type AddressClass,
  checkDeliveryUrl,
  checkEndpointUrl,
  classifyAddress,
  pinnedLookup,
  publicOnly,
} from "../../../server/lib/webhooks/address-policy.ts";

const CLASSES: [string, AddressClass][] = [
  ["8.8.8.8", "public"],
  ["1.1.1.1", "public"],
  ["93.184.216.34", "public"],
  ["0.0.0.0", "unspecified"],
  ["0.1.2.3", "reserved"],
  ["10.0.0.1", "private"],
  ["10.255.255.255", "private"],
  ["100.64.0.1", "private"],
  ["100.127.255.255", "private"],
  ["100.128.0.1", "public"],
  ["100.100.100.200", "metadata"],
  ["127.0.0.1", "loopback"],
  ["127.255.0.9", "loopback"],
  ["169.254.169.254", "metadata"],
  ["169.254.1.1", "link_local"],
  ["172.15.255.255", "public"],
  ["172.16.0.1", "private"],
  ["172.31.255.255", "private"],
  ["172.32.0.1", "public"],
  ["192.0.0.8", "reserved"],
  ["192.0.2.1", "reserved"],
  ["192.168.1.1", "private"],
  ["198.18.0.1", "reserved"],
  ["198.19.255.255", "reserved"],
  ["198.20.0.1", "public"],
  ["224.0.0.1", "reserved"],
  ["239.255.255.250", "reserved"],
  ["240.0.0.1", "reserved"],
  ["255.255.255.255", "reserved"],
  ["::", "unspecified"],
  ["::1", "loopback"],
  ["[::1]", "loopback"],
  ["2606:4700:4700::1111", "public"],
  ["2001:4860:4860::8888", "public"],
  ["fc00::1", "private"],
  ["fd12:3456::1", "private"],
  ["fe80::1", "link_local"],
  ["fe80::1%eth0", "link_local"],
  ["febf::1", "link_local"],
  ["fd00:ec2::254", "metadata"],
  ["FD00:EC2:0:0:0:0:0:254", "metadata"],
  ["ff02::1", "reserved"],
  ["2001:db8::1", "reserved"],
  ["::ffff:127.0.0.1", "loopback"],
  ["::ffff:7f00:1", "loopback"],
  ["::ffff:10.1.2.3", "private"],
  ["::ffff:169.254.169.254", "metadata"],
  ["::ffff:8.8.8.8", "public"],
  ["0:0:0:0:0:ffff:c0a8:101", "private"],
  ["64:ff9b::7f00:1", "loopback"],
  ["64:ff9b::808:808", "public"],
  ["2002:7f00:1::", "loopback"],
  ["2002:0808:0808::1", "public"],
  ["::127.0.0.1", "reserved"],
  ["not-an-ip", "reserved"],
  ["", "reserved"],
  ["256.1.1.1", "reserved"],
];

describe("classifyAddress", () => {
  it.each(CLASSES)("%s is %s", (ip, expected) => {
    expect(classifyAddress(ip)).toBe(expected);
  });
});

const fakeDns =
  (table: Record<string, string[]>) =>
  async (host: string): Promise<string[]> => {
    const found = table[host];
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
    return found;
  };

const DNS = fakeDns({
  "hooks.example.com": ["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"],
  "mixed.example.com": ["93.184.216.34", "10.0.0.5"],
  "rebind.example.com": ["127.0.0.1"],
  "metadata.example.com": ["169.254.169.254"],
  "mapped.example.com": ["::ffff:192.168.0.1"],
  "empty.example.com": [],
});

type Case = [url: string, environment: "sandbox" | "production", ok: boolean, reason?: RegExp];
const URL_CASES: Case[] = [
  ["https://hooks.example.com/coinplane", "production", true],
  ["https://93.184.216.34/hook", "production", true],
  ["https://[2606:4700:4700::1111]/hook", "production", true],
  ["http://hooks.example.com/coinplane", "production", false, /https/],
  ["ftp://hooks.example.com/", "production", false, /http or https/],
  ["hooks.example.com/path", "production", false, /absolute/],
  ["not a url", "sandbox", false, /absolute/],
  ["https://user:pw@hooks.example.com/", "production", false, /user name or password/],
  ["https://mixed.example.com/", "production", false, /private address \(10\.0\.0\.5\)/],
  ["https://rebind.example.com/", "production", false, /loopback/],
  ["https://metadata.example.com/", "production", false, /metadata/],
  ["https://mapped.example.com/", "production", false, /private/],
  ["https://empty.example.com/", "production", false, /could not be resolved/],
  ["https://unknown.example.com/", "production", false, /could not be resolved/],
  ["https://127.0.0.1/hook", "production", false, /loopback address \(127\.0\.0\.1\)/],
  ["https://2130706433/hook", "production", false, /loopback/], // URL normalises the decimal form to 127.0.0.1
  ["https://0x7f.1/hook", "production", false, /loopback/],
  ["https://[::1]/hook", "production", false, /loopback/],
  ["https://[::ffff:127.0.0.1]/hook", "production", false, /loopback/],
  ["https://169.254.169.254/latest/meta-data", "production", false, /metadata/],
  ["https://[fd00:ec2::254]/", "production", false, /metadata/],
  ["https://[fe80::1]/", "production", false, /link-local/],
  ["http://localhost:3000/hook", "sandbox", true],
  ["http://127.0.0.1:8080/hook", "sandbox", true],
  ["https://10.0.0.1/hook", "sandbox", true],
  ["http://unknown.example.com/", "sandbox", true], // sandbox does not resolve
  ["ftp://localhost/", "sandbox", false, /http or https/],
];

describe("checkEndpointUrl", () => {
  it.each(URL_CASES)("%s in %s → ok=%s", async (url, environment, ok, reason) => {
    const result = await checkEndpointUrl(url, environment, DNS);
    expect(result.ok).toBe(ok);
    if (!result.ok && reason) expect(result.reason).toMatch(reason);
  });

  it("does not resolve address literals or sandbox hosts", async () => {
    const calls: string[] = [];
    const spy = async (host: string) => {
      calls.push(host);
      return ["93.184.216.34"];
    };
    await checkEndpointUrl("https://93.184.216.34/", "production", spy);
    await checkEndpointUrl("http://anything.test/", "sandbox", spy);
    expect(calls).toEqual([]);
  });

  it("checkDeliveryUrl judges literals without DNS and leaves names to the lookup", () => {
    expect(checkDeliveryUrl("https://127.0.0.1/", "production")).toMatchObject({ ok: false });
    expect(checkDeliveryUrl("https://localhost/", "production")).toEqual({ ok: true });
    expect(checkDeliveryUrl("http://127.0.0.1/", "sandbox")).toEqual({ ok: true });
  });
});

function lookup(environment: "sandbox" | "production", host: string, all: boolean) {
  return new Promise<{ error: NodeJS.ErrnoException | null; address: string | LookupAddress[]; family?: number }>((resolve) =>
    pinnedLookup(environment)(host, { all }, (error, address, family) => resolve({ error, address, family })),
  );
}

describe("sandbox on a deployment that keeps it off private networks (WEBHOOK_SANDBOX_PRIVATE_TARGETS=false)", () => {
  const closed = { sandboxPrivateTargets: false };
  it.each([
    ["http://127.0.0.1:3000/hook", false],
    ["http://localhost.example/hook", false],
    ["http://rebind.example.com/hook", false],
    ["http://metadata.example.com/latest", false],
    ["http://10.0.0.7/hook", false],
    ["http://hooks.example.com/hook", true], // http stays allowed in the sandbox; the address must be public
    ["https://hooks.example.com/hook", true],
  ] as const)("%s → ok=%s", async (url, ok) => {
    const resolve = fakeDns({
      "localhost.example": ["127.0.0.1"],
      "rebind.example.com": ["127.0.0.1"],
      "metadata.example.com": ["169.254.169.254"],
      "hooks.example.com": ["93.184.216.34"],
    });
    expect((await checkEndpointUrl(url, "sandbox", resolve, closed)).ok).toBe(ok);
  });

  it("checks the sandbox's addresses at delivery too", () => {
    expect(checkDeliveryUrl("http://127.0.0.1/hook", "sandbox", closed).ok).toBe(false);
    expect(checkDeliveryUrl("http://127.0.0.1/hook", "sandbox").ok).toBe(true);
    expect(publicOnly("sandbox", closed)).toBe(true);
    expect(publicOnly("sandbox")).toBe(false);
    expect(publicOnly("production", { sandboxPrivateTargets: true })).toBe(true);
  });

  it("is the default when NODE_ENV=production, and can be set either way", () => {
    expect(loadConfig({ NODE_ENV: "production" }).webhooks.sandboxPrivateTargets).toBe(false);
    expect(loadConfig({}).webhooks.sandboxPrivateTargets).toBe(true);
    expect(loadConfig({ NODE_ENV: "production", WEBHOOK_SANDBOX_PRIVATE_TARGETS: "true" }).webhooks.sandboxPrivateTargets).toBe(true);
    expect(() => loadConfig({ WEBHOOK_SANDBOX_PRIVATE_TARGETS: "yes" })).toThrow(/true or false/);
  });
});

describe("pinnedLookup", () => {
  it("refuses a name that resolves to loopback in production, in both callback shapes node uses", async () => {
    for (const all of [false, true]) {
      const result = await lookup("production", "localhost", all);
      expect(result.error?.code).toBe("EADDRNOTPUBLIC");
      expect(result.error?.message).toMatch(/loopback/);
    }
  });

  it("returns the checked addresses in sandbox, one or all as asked", async () => {
    const one = await lookup("sandbox", "localhost", false);
    expect(one.error).toBeNull();
    expect(classifyAddress(one.address as string)).toBe("loopback");
    expect([4, 6]).toContain(one.family);
    const all = await lookup("sandbox", "localhost", true);
    expect(Array.isArray(all.address)).toBe(true);
    expect((all.address as LookupAddress[]).every((a) => classifyAddress(a.address) === "loopback")).toBe(true);
  });

  it("passes a resolution failure through", async () => {
    const result = await lookup("production", "does-not-exist.invalid", false);
    expect(result.error).not.toBeNull();
  });
});
