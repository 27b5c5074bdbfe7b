// /mcp refuses browser pages of other origins (DNS rebinding, MCP spec "Security Warning"): a request that carries an
// `Origin` must come from this server's public origin (PUBLIC_URL) or from the local machine (localhost, 127.0.0.1,
// [::1], any port). Comparing Origin with Host would not do: a rebound page sends its own name in both. Clients that
// are not browsers send no Origin and pass; the API key still decides everything else.
import type { Request } from "express";

const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

export function originAllowed(req: Request, publicUrl: string | undefined): boolean {
  const origin = req.get("origin");
  if (origin === undefined) return true;
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return false;
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return false;
  if (publicUrl && parsed.origin === new URL(publicUrl).origin) return true;
  return LOCAL_HOSTS.has(parsed.hostname);
}
