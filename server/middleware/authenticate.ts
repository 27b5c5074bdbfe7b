import type { RequestHandler } from "express";
import { digestsEqual, hashApiKey, isWellFormedApiKey, secretsEqual } from "../auth/api-keys.ts";
import type { Config } from "../config.ts";
import type { Environment } from "../context.ts";
import type { Queryable } from "../db/kysely.ts";
import { precompiled } from "../db/precompiled-query.ts";
import { isDatabaseUnavailable } from "../errors/database-errors.ts";
import { ServiceError } from "../errors/service-error.ts";

const findApiKeyByHash = precompiled((db, p: { hash: string }) =>
  db
    .selectFrom("ApiKey")
    .select(["id", "hash", "organizationId", "environment", "scopes", "actor", "revokedAt"])
    .where("hash", "=", p.hash),
);

const QUERY_CREDENTIALS = ["api_key", "apikey", "apiKey", "key", "access_token", "token"];

function bearer(header: string | undefined): string | undefined {
  const match = header ? /^Bearer ([^\s]+)$/i.exec(header) : null;
  return match?.[1];
}

/** Resolves the caller by the operation's security scheme: API key, admin token, scheduler secret, or none.
 * The key is looked up on every request (one indexed statement, no cache), so a revoked key fails on the very next
 * request on every instance. */
export function authenticate(db: Queryable, config: Pick<Config, "adminToken" | "schedulerSecret">): RequestHandler {
  return async function authenticateMiddleware(req, _res, next) {
    const operation = req.ctx.operation;
    if (!operation || operation.security === "none") return next();
    try {
      if (operation.security === "adminToken") {
        const token = bearer(req.get("authorization"));
        if (!config.adminToken || !token || !secretsEqual(token, config.adminToken)) {
          throw new ServiceError("UNAUTHORIZED", "Missing or invalid admin token");
        }
        return next();
      }
      if (operation.security === "schedulerSecret") {
        if (!config.schedulerSecret) throw new ServiceError("INTERNAL_ERROR", "The scheduler secret is not configured");
        const secret = req.get("x-scheduler-secret");
        if (!secret || !secretsEqual(secret, config.schedulerSecret)) {
          throw new ServiceError("UNAUTHORIZED", "Missing or invalid scheduler secret");
        }
        return next();
      }
      if (QUERY_CREDENTIALS.some((name) => name in (req.query as Record<string, unknown>))) {
        throw new ServiceError("UNAUTHORIZED", "API keys are accepted only in the Authorization header");
      }
      const key = bearer(req.get("authorization"));
      if (!key || !isWellFormedApiKey(key)) throw new ServiceError("UNAUTHORIZED", "Missing or invalid API key");
      const hash = hashApiKey(key);
      const [record] = await findApiKeyByHash.execute(db, { hash });
      if (!record || record.revokedAt || !digestsEqual(record.hash, hash)) {
        throw new ServiceError("UNAUTHORIZED", "Missing or invalid API key");
      }
      req.ctx.auth = {
        apiKeyId: record.id,
        organizationId: record.organizationId,
        environment: record.environment as Environment,
        scopes: record.scopes,
        actor: record.actor,
      };
      next();
    } catch (error) {
      if (isDatabaseUnavailable(error))
        return next(new ServiceError("SERVICE_UNAVAILABLE", "Authentication store unavailable", { retryAfterSeconds: 5, cause: error }));
      next(error);
    }
  };
}
