// GET /docs: the docs portal built by `npm run docs` (docs/portal/index.html, not committed). Served when present, with a
// Content-Security-Policy that allows exactly the portal's inline scripts (by hash) and nothing from other origins.
// Without a build it answers 404 with how to build it, or 503 with Retry-After while a first `npm start` builds it
// (scripts/ensure-start-builds.ts builds it beside the server's start, in a `portal.building-*` folder next to it).
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { RequestHandler } from "express";

export const DEFAULT_PORTAL_FILE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../docs/portal/index.html");

interface Cached {
  mtimeMs: number;
  html: Buffer;
  csp: string;
}

function contentSecurityPolicy(html: string): string {
  const hashes = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map(
    (m) =>
      `'sha256-${createHash("sha256")
        .update(m[1] ?? "", "utf8")
        .digest("base64")}'`,
  );
  return [
    "default-src 'self'",
    `script-src 'self' ${hashes.join(" ")}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "worker-src 'self' blob:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "frame-ancestors 'self'",
  ].join("; ");
}

/** True while scripts/ensure-start-builds.ts writes the portal (its temporary folder exists beside the portal's). */
export function portalBeingBuilt(file = DEFAULT_PORTAL_FILE): boolean {
  const folder = path.dirname(file);
  try {
    return readdirSync(path.dirname(folder)).some((name) => name.startsWith(`${path.basename(folder)}.building-`));
  } catch {
    return false;
  }
}

export function docsPortal(file = DEFAULT_PORTAL_FILE): RequestHandler {
  let cached: Cached | undefined;
  return (_req, res) => {
    let mtimeMs: number;
    try {
      mtimeMs = statSync(file).mtimeMs;
    } catch {
      if (portalBeingBuilt(file)) {
        res
          .status(503)
          .setHeader("Retry-After", "5")
          .type("text/plain")
          .send("The docs portal is being built (a first start); reload /docs in a few seconds.\n");
        return;
      }
      res
        .status(404)
        .type("text/plain")
        .send("The docs portal is not built. Run `npm run build` (or `npm run docs` for the portal alone), then reload /docs.\n");
      return;
    }
    if (!cached || cached.mtimeMs !== mtimeMs) {
      const html = readFileSync(file);
      cached = { mtimeMs, html, csp: contentSecurityPolicy(html.toString("utf8")) };
    }
    res.setHeader("Content-Security-Policy", cached.csp);
    res.setHeader("Cache-Control", "no-cache");
    res.type("html").send(cached.html);
  };
}
