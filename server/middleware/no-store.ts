import type { RequestHandler } from "express";

/**
 * `Cache-Control: no-store` on every `/api/…` response (v1, v2, metrics and admin), set before anything can answer, so
 * it is on successes, replays, errors (400/401/404/405/413/429/503 included) and the admin key-creation response that
 * carries a secret: no browser, proxy or CDN may keep a copy of account data or credentials.
 */
export function noStore(): RequestHandler {
  return function noStoreMiddleware(req, res, next) {
    const path = req.path.toLowerCase();
    if (path === "/api" || path.startsWith("/api/")) res.setHeader("Cache-Control", "no-store");
    next();
  };
}
