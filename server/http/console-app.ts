// GET /console…: the console, a static single-page app built by `npm run build:console` (console/dist, not committed).
// Its hashed assets are served as immutable files; every other path under /console answers index.html, so each page
// and resource has its own URL. A strict Content-Security-Policy: scripts and styles from this origin only (the build
// has no inline script and no eval), requests to this origin only, no framing. Without a build it answers 404 with how
// to build it. The folder resolves the same way from the source tree (server/http) and from dist/server/http.
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import express, { type RequestHandler, Router } from "express";

export const DEFAULT_CONSOLE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../console/dist");

export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

const csp: RequestHandler = (_req, res, next) => {
  res.setHeader("Content-Security-Policy", CONSOLE_CSP);
  res.setHeader("Referrer-Policy", "no-referrer");
  next();
};

export function consoleApp(dir = DEFAULT_CONSOLE_DIR): Router {
  const router = Router({ caseSensitive: true, strict: false });
  const index = path.join(dir, "index.html");
  let cached: { mtimeMs: number; html: Buffer } | undefined;
  router.use(csp);
  // File names carry their content hash: a year of caching is safe, and a missing asset is a 404, not the page.
  router.use("/assets", express.static(path.join(dir, "assets"), { immutable: true, maxAge: "365d", index: false }), (_req, res) => {
    res.status(404).type("text/plain").send("No such console asset.\n");
  });
  router.get(/.*/, (_req, res) => {
    let mtimeMs: number;
    try {
      mtimeMs = statSync(index).mtimeMs;
    } catch {
      res
        .status(404)
        .type("text/plain")
        .send("The console is not built. Run `npm run build:console` (or `npm run build`), then reload /console.\n");
      return;
    }
    if (!cached || cached.mtimeMs !== mtimeMs) cached = { mtimeMs, html: readFileSync(index) };
    res.setHeader("Cache-Control", "no-cache");
    res.type("html").send(cached.html);
  });
  return router;
}
