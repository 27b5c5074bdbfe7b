// What the middleware chain learns about a request, in one typed place.
import type { IdempotencyClaim } from "./db/unit-of-work.ts";
import type { Logger } from "./logger.ts";
import type { Operation, Surface } from "./spec/operations.ts";

export type Environment = "sandbox" | "production";

export interface AuthContext {
  apiKeyId: string;
  organizationId: string;
  environment: Environment;
  scopes: string[];
  actor: string;
}

export interface RequestContext {
  requestId: string;
  surface: Surface;
  log: Logger;
  operation?: Operation;
  params: Record<string, string>;
  auth?: AuthContext;
  /** The parsed Idempotency-Key; the handler's unit of work reserves it. */
  idempotency?: IdempotencyClaim;
}

declare global {
  namespace Express {
    interface Request {
      ctx: RequestContext;
    }
  }
}
