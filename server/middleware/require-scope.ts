import type { RequestHandler } from "express";
import { hasScope } from "../domain/access/api-keys.ts";
import { ServiceError } from "../errors/service-error.ts";

/** Enforces the operation's scopes, the sandbox-only rule, and that a body `organizationId` is the key's own. */
export function requireScope(): RequestHandler {
  return function requireScopeMiddleware(req, _res, next) {
    const { operation, auth } = req.ctx;
    if (!operation || !auth) return next();
    const missing = operation.scopes.filter((scope) => !hasScope(auth.scopes, scope));
    if (missing.length > 0) {
      return next(new ServiceError("FORBIDDEN", `This API key lacks the scope ${missing.join(", ")} required by this operation`));
    }
    if (operation.sandboxOnly && auth.environment !== "sandbox") {
      return next(new ServiceError("FORBIDDEN", "This endpoint is sandbox-only; use a sandbox API key"));
    }
    const body: unknown = req.body;
    const bodyOrg = typeof body === "object" && body !== null && "organizationId" in body ? body.organizationId : undefined;
    if (bodyOrg !== undefined && bodyOrg !== auth.organizationId) {
      return next(new ServiceError("FORBIDDEN", "organizationId does not match the API key's organization"));
    }
    next();
  };
}
