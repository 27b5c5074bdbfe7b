// What the middleware chain learns about a request, in one typed place.
import type { IdempotencyClaim } from "./db/unit-of-work/index.ts";
import type { Logger } from "./logger.ts";
import type { Operation, Surface } from "./spec/operations.ts";

export type Environment = "sandbox" | "production";

export interface AuthContext {
  /** The API key's id; for a member's session, the member's id (the request budget and `decidedBy.apiKeyId` use it). */
  apiKeyId: string;
  organizationId: string;
  environment: Environment;
  scopes: string[];
  actor: string;
  /** The member behind the request: the session's, or the one who created the API key (null: an operator's key). */
  memberId?: string | null;
  /** The API key carries spending limits (server/domain/spending-limits/): its money-moving calls are counted. */
  spendingLimited?: boolean;
  /** Present when a member's session (cookie) authenticated the request; never with an API key. */
  session?: SessionAuth;
}

export interface SessionAuth {
  id: string;
  memberId: string;
  email: string;
  role: "owner" | "developer" | "approver" | "viewer";
  secondFactorVerified: boolean;
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
}

export interface RequestContext {
  requestId: string;
  surface: Surface;
  log: Logger;
  operation?: Operation;
  params: Record<string, string>;
  auth?: AuthContext;
  /** A body the parser refused (malformed JSON, over the size limit, unstorable text). It is answered after
   * authentication and the rate limit (middleware/body-errors.ts), so the 400/413 carries the budget headers like any
   * other answer to the key; an operation that takes no body ignores it. */
  bodyError?: unknown;
  /** The parsed Idempotency-Key; the handler's unit of work reserves it. */
  idempotency?: IdempotencyClaim;
  /** Set when the request passed every check of the chain and reached its operation's handler: a refusal after this
   * came from the operation's own rules, not from the contract's (the conformance test tells the two apart by it). */
  reachedHandler?: true;
}

declare global {
  namespace Express {
    interface Request {
      ctx: RequestContext;
    }
  }
}
