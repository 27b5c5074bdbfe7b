import type { NextFunction, Request, RequestHandler, Response } from "express";
import type { Config } from "../config.ts";
import type { Environment } from "../context.ts";
import { cachedPeek, cachedRead } from "../db/cached-read.ts";
import type { Queryable } from "../db/kysely.ts";
import { precompiled } from "../db/precompiled-query.ts";
import { digestsEqual, hashApiKey, isWellFormedApiKey, secretsEqual } from "../domain/access/api-keys.ts";
import { isDatabaseUnavailable } from "../errors/classify-failure.ts";
import { ServiceError } from "../errors/service-error.ts";
import { clientAddress } from "../rate-limit/client-address.ts";
import type { AuthFailureLimiter } from "../rate-limit/rate-limiter.ts";
import type { Operation } from "../spec/operations.ts";
import type { KeyUsageRecorder } from "./key-usage.ts";
import { setRateLimitHeaders } from "./rate-limit.ts";
import { authenticateSession, carriesSessionCookie, checkSameOrigin } from "./session-auth.ts";

const findApiKeyByHash = precompiled((db, p: { hash: string }) =>
  db
    .selectFrom("ApiKey")
    .select(["id", "hash", "organizationId", "environment", "scopes", "actor", "revokedAt", "createdByMemberId", "spendingLimited"])
    .where("hash", "=", p.hash),
);

type ApiKeyRecord = Awaited<ReturnType<typeof findApiKeyByHash.execute>>[number];

const isActive = (record: ApiKeyRecord | undefined, hash: string): record is ApiKeyRecord =>
  record !== undefined && !record.revokedAt && digestsEqual(record.hash, hash);

/** The stored hash of a well-formed key; undefined for anything else (no key, or not a key's shape). */
const hashOfWellFormed = (key: string | undefined) => (key && isWellFormedApiKey(key) ? hashApiKey(key) : undefined);

/** The API key's record when the key is well formed, known and not revoked (the /mcp endpoint's check too). */
export async function findActiveApiKey(db: Queryable, key: string | undefined) {
  const hash = hashOfWellFormed(key);
  if (!hash) return undefined;
  const record = await cachedRead(db, "ApiKey", hash, "", async () => (await findApiKeyByHash.execute(db, { hash }))[0]);
  return isActive(record, hash) ? record : undefined;
}

/** The same record without a promise, when the read cache holds it and it is active; undefined otherwise (then
 * findActiveApiKey decides, reading the database if need be). */
function cachedActiveApiKey(db: Queryable, key: string | undefined): ApiKeyRecord | undefined {
  const hash = hashOfWellFormed(key);
  if (!hash) return undefined;
  const record = cachedPeek(db, "ApiKey", hash, "")?.value as ApiKeyRecord | undefined;
  return isActive(record, hash) ? record : undefined;
}

/** What a known, active API key makes of the request: its caller, and a note of its use. */
function acceptApiKey(req: Request, record: ApiKeyRecord, keyUsage: KeyUsageRecorder | undefined): void {
  req.ctx.auth = {
    apiKeyId: record.id,
    organizationId: record.organizationId,
    environment: record.environment as Environment,
    scopes: record.scopes,
    actor: record.actor,
    memberId: record.createdByMemberId,
    spendingLimited: record.spendingLimited,
  };
  keyUsage?.note(record.id);
}

const QUERY_CREDENTIALS = ["api_key", "apikey", "apiKey", "key", "access_token", "token"];

export function bearer(header: string | undefined): string | undefined {
  const match = header ? /^Bearer ([^\s]+)$/i.exec(header) : null;
  return match?.[1];
}

/** Resolves the caller by the operation's security scheme: API key, admin token, scheduler secret, or none.
 * A key is read from the database once and then from memory (server/db/cached-read.ts): revoking it drops every
 * instance's copy before the revocation answers, so a revoked key fails on the very next request on every instance.
 * With `failures`, every 401 is counted against the client address; once its budget is spent
 * a failed authentication answers 429 instead (successes never count, so a valid credential from that address works). */
/** During a rotation (README "Operations") the previous value is still accepted, so no caller is cut off mid-roll. */
function matchesCurrentOrPrevious(given: string, current: string, previous: string | undefined): boolean {
  return secretsEqual(given, current) || (previous !== undefined && secretsEqual(given, previous));
}

export function authenticate(
  db: Queryable,
  config: Pick<Config, "adminToken" | "previousAdminToken" | "schedulerSecret" | "previousSchedulerSecret" | "people">,
  failures?: AuthFailureLimiter,
  keyUsage?: KeyUsageRecorder,
): RequestHandler {
  // The common case first, without a promise: an API key in the Authorization header whose record the read cache holds
  // (pipeline.ts waits on a step only when it returns one). Anything else (a miss, a revoked or unknown key, the other
  // schemes, every refusal) takes the full path below, which decides exactly as before.
  return function authenticateMiddleware(req, res, next) {
    const operation = req.ctx.operation;
    if (!operation) return next();
    if (operation.security === "apiKey" && !QUERY_CREDENTIALS.some((name) => Object.hasOwn(req.query, name))) {
      const record = cachedActiveApiKey(db, bearer(req.get("authorization")));
      if (record) {
        acceptApiKey(req, record, keyUsage);
        return next();
      }
    }
    return authenticateFully(req, res, next, operation);
  };

  async function authenticateFully(req: Request, res: Response, next: NextFunction, operation: Operation): Promise<void> {
    try {
      if (operation.security === "none") {
        // Signing in and accepting an invitation (the agent API's only open writes) refuse a foreign origin (login CSRF).
        if (operation.surface === "v2") checkSameOrigin(req, config.people.publicUrl, false);
        return next();
      }
      // A member's session: the operations of the session scheme, and those that also accept it (approving) when the
      // request carries the cookie and no bearer key. An API key never reaches the session path, nor a cookie the key's.
      if (operation.security === "session" || (operation.sessionAccepted && !req.get("authorization") && carriesSessionCookie(req))) {
        req.ctx.auth = await authenticateSession(db, req, config.people);
        return next();
      }
      if (operation.security === "adminToken") {
        const token = bearer(req.get("authorization"));
        if (!config.adminToken || !token || !matchesCurrentOrPrevious(token, config.adminToken, config.previousAdminToken)) {
          throw new ServiceError("UNAUTHORIZED", "Missing or invalid admin token");
        }
        return next();
      }
      if (operation.security === "schedulerSecret") {
        if (!config.schedulerSecret) throw new ServiceError("INTERNAL_ERROR", "The scheduler secret is not configured");
        const secret = req.get("x-scheduler-secret");
        if (!secret || !matchesCurrentOrPrevious(secret, config.schedulerSecret, config.previousSchedulerSecret)) {
          throw new ServiceError("UNAUTHORIZED", "Missing or invalid scheduler secret");
        }
        return next();
      }
      if (QUERY_CREDENTIALS.some((name) => Object.hasOwn(req.query, name))) {
        throw new ServiceError("UNAUTHORIZED", "API keys are accepted only in the Authorization header");
      }
      const record = await findActiveApiKey(db, bearer(req.get("authorization")));
      if (!record) throw new ServiceError("UNAUTHORIZED", "Missing or invalid API key");
      acceptApiKey(req, record, keyUsage);
      next();
    } catch (error) {
      if (failures && error instanceof ServiceError && error.code === "UNAUTHORIZED") {
        return next(await limitFailure(failures, req, res, error));
      }
      if (isDatabaseUnavailable(error))
        return next(new ServiceError("SERVICE_UNAVAILABLE", "Authentication store unavailable", { retryAfterSeconds: 5, cause: error }));
      next(error);
    }
  }
}

/** Counts a failed authentication against the client address: the 401 while the address has budget, else 429. The
 * limiter fails open (a Redis outage must not lock operators out of /api/admin; API-key requests still stop at the
 * per-key limiter's 503), so a store error keeps the 401. */
async function limitFailure(
  failures: AuthFailureLimiter,
  req: Parameters<RequestHandler>[0],
  res: Parameters<RequestHandler>[1],
  unauthorized: ServiceError,
): Promise<ServiceError> {
  const address = clientAddress(req);
  try {
    const d = await failures.fail(address);
    // The 401 reports the address's failure budget too ("auth-failures"), so a client sees it shrink before the 429.
    setRateLimitHeaders(res, d);
    if (d.allowed) return unauthorized;
    req.ctx.log?.debug({ address, policy: d.policy }, "authentication failures rate limited");
    return new ServiceError(
      "RATE_LIMIT_EXCEEDED",
      "Too many failed authentications from this address; retry after the time in Retry-After",
      {
        retryAfterSeconds: d.resetSeconds,
      },
    );
  } catch (error) {
    req.ctx.log?.warn({ err: (error as Error).message }, "authentication failure limiter unavailable");
    return unauthorized;
  }
}
