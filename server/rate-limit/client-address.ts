// The address a per-client budget is keyed by. `req.ip` is the socket's peer address unless the app trusts a proxy
// (TRUST_PROXY → Express `trust proxy`), in which case Express takes it from X-Forwarded-For up to the trusted hops.
// IPv4-mapped IPv6 addresses count as their IPv4 address; other IPv6 addresses are grouped by /64, the block one
// subscriber usually holds, so rotating through it does not yield fresh budgets.
import { isIPv6 } from "node:net";
import type { Request } from "express";

function expandIPv6(address: string): string[] | undefined {
  const [head = "", tail] = address.split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  if (tail === undefined && left.length !== 8) return undefined;
  const groups = [...left, ...Array<string>(8 - left.length - right.length).fill("0"), ...right];
  return groups.length === 8 ? groups : undefined;
}

export function budgetAddress(raw: string | undefined): string {
  if (!raw) return "unknown";
  const address = raw.split("%")[0] as string; // zone index
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1] as string;
  if (!isIPv6(address)) return address;
  const groups = expandIPv6(address.toLowerCase());
  if (!groups) return address;
  return `${groups
    .slice(0, 4)
    .map((g) => Number.parseInt(g, 16).toString(16))
    .join(":")}::/64`;
}

export function clientAddress(req: Request): string {
  return budgetAddress(req.ip ?? req.socket.remoteAddress);
}
