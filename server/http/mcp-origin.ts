// /mcp refuses a browser page of another origin (DNS rebinding, MCP spec "Security Warning"): a request with an
// `Origin` must come from this server's own origin (PUBLIC_URL, or the Host it was sent to). Clients that are not
// browsers send no Origin and pass.
import type { Request } from "express";

export function originAllowed(req: Request, publicUrl: string | undefined): boolean {
  const origin = req.get("origin");
  if (!origin) return true;
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return false;
  }
  if (publicUrl && parsed.origin === new URL(publicUrl).origin) return true;
  const host = req.get("host");
  return host !== undefined && parsed.host === host && (parsed.protocol === "http:" || parsed.protocol === "https:");
}
