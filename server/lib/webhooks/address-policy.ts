// Where a webhook may be sent (issue 16). Production endpoints must be https and every address their name resolves to
// must be public: no loopback, private, CGNAT, link-local, cloud metadata, multicast or reserved ranges, IPv4-mapped IPv6
// included. Sandbox endpoints may target anything (localhost while developing). The same check runs when an endpoint
// is created (checkEndpointUrl) and at delivery (pinnedLookup: the connection goes only to addresses just checked, so a
// name that re-resolves to 127.0.0.1 between the check and the connect — DNS rebinding — cannot redirect a delivery).

import type { LookupAddress, LookupAllOptions, LookupOneOptions } from "node:dns";
import dns from "node:dns";
import net from "node:net";
import { withIoTimeout } from "../with-io-timeout.ts";

export type AddressClass = "public" | "loopback" | "private" | "link_local" | "metadata" | "unspecified" | "reserved";
export type EndpointEnvironment = "sandbox" | "production";
export type UrlCheck = { ok: true } | { ok: false; reason: string };
/** Every address `hostname` resolves to (A and AAAA). */
export type Resolve = (hostname: string) => Promise<string[]>;

/** Sandbox endpoints may reach loopback and private addresses (local development) unless the deployment says no:
 * `WEBHOOK_SANDBOX_PRIVATE_TARGETS`, off by default when NODE_ENV=production, so a sandbox key on a hosted deployment
 * cannot make the server call its own network. Production endpoints never may. */
export interface AddressOptions {
  sandboxPrivateTargets?: boolean;
}

/** Whether the addresses of a URL in `environment` must all be public. */
export function publicOnly(environment: EndpointEnvironment, options: AddressOptions = {}): boolean {
  return environment === "production" || options.sandboxPrivateTargets === false;
}

export const RESOLVE_TIMEOUT_MS = 5_000;

interface Range {
  /** Network address, as 32 bits (IPv4) or 128 bits (IPv6). */
  base: bigint;
  prefix: number;
  kind: Exclude<AddressClass, "public">;
}

// Checked in order, so a single address inside a wider range (metadata) comes first.
const V4_RANGES: Range[] = [
  v4("169.254.169.254", 32, "metadata"), // AWS, GCP, Azure, OpenStack instance metadata
  v4("100.100.100.200", 32, "metadata"), // Alibaba Cloud metadata (inside CGNAT)
  v4("0.0.0.0", 32, "unspecified"),
  v4("0.0.0.0", 8, "reserved"), // "this network"
  v4("10.0.0.0", 8, "private"),
  v4("100.64.0.0", 10, "private"), // carrier-grade NAT, shared address space
  v4("127.0.0.0", 8, "loopback"),
  v4("169.254.0.0", 16, "link_local"),
  v4("172.16.0.0", 12, "private"),
  v4("192.0.0.0", 24, "reserved"), // IETF protocol assignments
  v4("192.0.2.0", 24, "reserved"), // documentation (TEST-NET-1)
  v4("192.168.0.0", 16, "private"),
  v4("198.18.0.0", 15, "reserved"), // benchmarking
  v4("198.51.100.0", 24, "reserved"), // documentation (TEST-NET-2)
  v4("203.0.113.0", 24, "reserved"), // documentation (TEST-NET-3)
  v4("224.0.0.0", 4, "reserved"), // multicast
  v4("240.0.0.0", 4, "reserved"), // future use and broadcast 255.255.255.255
];

const V6_RANGES: Range[] = [
  v6("fd00:ec2::254", 128, "metadata"), // AWS instance metadata over IPv6 (inside fc00::/7)
  v6("::", 128, "unspecified"),
  v6("::1", 128, "loopback"),
  v6("::", 96, "reserved"), // deprecated IPv4-compatible addresses
  v6("100::", 64, "reserved"), // discard-only
  v6("2001::", 32, "reserved"), // Teredo
  v6("2001:db8::", 32, "reserved"), // documentation
  v6("fc00::", 7, "private"), // unique local
  v6("fe80::", 10, "link_local"),
  v6("fec0::", 10, "private"), // deprecated site-local
  v6("ff00::", 8, "reserved"), // multicast
];

/** Classifies an IPv4 or IPv6 address (zone id allowed). Anything that is not an IP address is "reserved", never public. */
export function classifyAddress(ip: string): AddressClass {
  const address = ip.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  const family = net.isIP(address);
  if (family === 4) return classifyV4(parseV4(address));
  if (family !== 6) return "reserved";
  const bits = parseV6(address);
  if (bits === null) return "reserved";
  // An IPv6 address that carries an IPv4 one reaches that IPv4 host: ::ffff:a.b.c.d (mapped), 64:ff9b::/96 (NAT64),
  // 2002:AABB:CCDD::/48 (6to4). Judge the IPv4 address inside.
  if (bits >> 32n === 0xffffn) return classifyV4(bits & 0xffff_ffffn);
  if (bits >> 32n === 0x64_ff9b_0000_0000_0000_0000n) return classifyV4(bits & 0xffff_ffffn);
  if (bits >> 112n === 0x2002n) return classifyV4((bits >> 80n) & 0xffff_ffffn);
  return match(bits, 128, V6_RANGES);
}

/**
 * Whether `url` may be a webhook endpoint in `environment`: production needs https and a host whose every address is
 * public (resolved now); sandbox takes any http or https URL. `reason` is a sentence fragment for a 400 problem detail.
 */
export async function checkEndpointUrl(
  url: string,
  environment: EndpointEnvironment,
  resolve: Resolve = resolveAll,
  options: AddressOptions = {},
): Promise<UrlCheck> {
  const syntax = checkDeliveryUrl(url, environment, options);
  if (!syntax.ok || !publicOnly(environment, options)) return syntax;
  const host = hostOf(new URL(url));
  if (net.isIP(host)) return syntax; // literal addresses were judged by checkDeliveryUrl
  let addresses: string[];
  try {
    addresses = await resolve(host);
  } catch {
    return { ok: false, reason: `host ${host} could not be resolved` };
  }
  if (addresses.length === 0) return { ok: false, reason: `host ${host} could not be resolved` };
  for (const address of addresses) {
    const kind = classifyAddress(address);
    if (kind !== "public") return { ok: false, reason: notPublic(host, address, kind) };
  }
  return { ok: true };
}

/**
 * The checks that need no DNS: a parseable http(s) URL without credentials; in production https and, when the host is an
 * address literal (which node connects to without a lookup, so pinnedLookup never sees it), a public address.
 */
export function checkDeliveryUrl(url: string, environment: EndpointEnvironment, options: AddressOptions = {}): UrlCheck {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, reason: "must be an absolute http or https URL" };
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") return { ok: false, reason: "must be an http or https URL" };
  // Credentials in the URL would be stored and shown in plain text with the endpoint; the signature authenticates us.
  if (parsed.username || parsed.password) return { ok: false, reason: "must not contain a user name or password" };
  if (environment === "production" && parsed.protocol !== "https:") return { ok: false, reason: "must use https in production" };
  if (!publicOnly(environment, options)) return { ok: true };
  const host = hostOf(parsed);
  if (net.isIP(host)) {
    const kind = classifyAddress(host);
    if (kind !== "public") return { ok: false, reason: notPublic(host, host, kind) };
  }
  return { ok: true };
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
export type PinnedLookup = (hostname: string, options: LookupOneOptions | LookupAllOptions, callback: LookupCallback) => void;

/**
 * A `lookup` for node's http(s).request: resolves every address of the name, and in production fails unless all of them
 * are public, then hands node only those checked addresses. Node connects to what lookup returned, without resolving
 * again. (Address literals skip lookup: check them with checkDeliveryUrl first.)
 */
export function pinnedLookup(environment: EndpointEnvironment, options: AddressOptions = {}): PinnedLookup {
  const checked = publicOnly(environment, options);
  return (hostname, options, callback) => {
    dns.lookup(hostname, { all: true, verbatim: true, family: options.family ?? 0 }, (error, addresses) => {
      if (error) return callback(error, "");
      if (addresses.length === 0) return callback(lookupError(hostname, "ENOTFOUND", `${hostname} has no address`), "");
      if (checked) {
        const bad = addresses.map((a) => ({ a, kind: classifyAddress(a.address) })).find((x) => x.kind !== "public");
        if (bad) return callback(lookupError(hostname, "EADDRNOTPUBLIC", notPublic(hostname, bad.a.address, bad.kind)), "");
      }
      if (options.all) return callback(null, addresses);
      const first = addresses[0] as LookupAddress;
      return callback(null, first.address, first.family);
    });
  };
}

/** Every address of `hostname`, bounded by RESOLVE_TIMEOUT_MS. */
export async function resolveAll(hostname: string): Promise<string[]> {
  const addresses = await withIoTimeout(dns.promises.lookup(hostname, { all: true, verbatim: true }), RESOLVE_TIMEOUT_MS, "DNS lookup");
  return addresses.map((a) => a.address);
}

function hostOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, "");
}

function notPublic(host: string, address: string, kind: AddressClass): string {
  const what = kind.replace("_", "-");
  return host === address ? `must not target a ${what} address (${address})` : `host ${host} resolves to a ${what} address (${address})`;
}

function lookupError(hostname: string, code: string, message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(message), { code, hostname });
}

function classifyV4(bits: bigint): AddressClass {
  return match(bits, 32, V4_RANGES);
}

function match(bits: bigint, width: number, ranges: Range[]): AddressClass {
  for (const range of ranges) {
    const shift = BigInt(width - range.prefix);
    if (bits >> shift === range.base >> shift) return range.kind;
  }
  return "public";
}

function v4(address: string, prefix: number, kind: Range["kind"]): Range {
  return { base: parseV4(address), prefix, kind };
}

function v6(address: string, prefix: number, kind: Range["kind"]): Range {
  return { base: parseV6(address) ?? 0n, prefix, kind };
}

function parseV4(address: string): bigint {
  return address.split(".").reduce((acc, part) => (acc << 8n) | BigInt(Number(part)), 0n);
}

/** 128 bits of a valid IPv6 address (net.isIP already said so), the dotted IPv4 tail form included. */
function parseV6(address: string): bigint | null {
  let text = address.toLowerCase();
  const dotted = text.match(/^(.*:)(\d+\.\d+\.\d+\.\d+)$/);
  if (dotted) {
    const tail = parseV4(dotted[2] as string);
    text = `${dotted[1]}${(tail >> 16n).toString(16)}:${(tail & 0xffffn).toString(16)}`;
  }
  const [head, rest] = text.split("::") as [string, string | undefined];
  const left = head ? head.split(":") : [];
  const right = rest ? rest.split(":") : [];
  const groups = rest === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill("0"), ...right];
  if (groups.length !== 8) return null;
  return groups.reduce((acc, group) => (acc << 16n) | BigInt(Number.parseInt(group, 16)), 0n);
}
