// /mcp takes the API key as bearer, like the REST surface. A missing, invalid or revoked key is an HTTP 401 with
// `WWW-Authenticate` — never a tool result, which a client would not re-authenticate on — counted against the client
// address's failure budget (429 once spent), as REST's 401s are.
import type { Request, Response } from "express";
import type { Environment } from "../context.ts";
import type { Queryable } from "../db/kysely.ts";
import { isDatabaseUnavailable } from "../errors/classify-failure.ts";
import { bearer, findActiveApiKey } from "../middleware/authenticate.ts";
import { setRateLimitHeaders } from "../middleware/rate-limit.ts";
import { clientAddress } from "../rate-limit/client-address.ts";
import type { AuthFailureLimiter } from "../rate-limit/rate-limiter.ts";

export interface McpCaller {
  apiKey: string;
  apiKeyId: string;
  organizationId: string;
  environment: Environment;
  scopes: string[];
}

function refuse(req: Request, res: Response, status: number, code: string, message: string, retryAfter?: number): undefined {
  if (status === 401) res.setHeader("WWW-Authenticate", 'Bearer realm="coinplane", error="invalid_token"');
  if (retryAfter !== undefined) res.setHeader("Retry-After", String(retryAfter));
  res.status(status).json({ error: message, code, requestId: req.ctx.requestId });
  return undefined;
}

export async function authenticateMcp(
  db: Queryable,
  failures: AuthFailureLimiter | undefined,
  req: Request,
  res: Response,
): Promise<McpCaller | undefined> {
  const key = bearer(req.get("authorization"));
  let record: Awaited<ReturnType<typeof findActiveApiKey>>;
  try {
    record = await findActiveApiKey(db, key);
  } catch (error) {
    if (isDatabaseUnavailable(error)) return refuse(req, res, 503, "service_unavailable", "Authentication store unavailable", 5);
    throw error;
  }
  if (!record || !key) {
    if (failures) {
      const d = await failures.fail(clientAddress(req)).catch(() => undefined);
      if (d) {
        setRateLimitHeaders(res, d);
        if (!d.allowed) return refuse(req, res, 429, "rate_limited", "Too many failed authentications", d.resetSeconds);
      }
    }
    return refuse(req, res, 401, "unauthorized", "Missing or invalid API key");
  }
  return {
    apiKey: key,
    apiKeyId: record.id,
    organizationId: record.organizationId,
    environment: record.environment as Environment,
    scopes: record.scopes,
  };
}
