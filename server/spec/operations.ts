// An index of the spec's operations, so middleware can ask "which operation is this request, what does it need?"
// Matching a path to a template is the SDK's (sdk/src/protocol/path-templates.ts), which the partner mock runs too.
import { PathTemplates } from "../../sdk/src/protocol/path-templates.ts";
import { errorCodesFor } from "./error-codes-of.ts";
import type { OpenApiDocument } from "./load-spec.ts";
import { deref } from "./resolve-ref.ts";

export type Surface = "v1" | "v2" | "metric" | "admin" | "health";
export type Security = "apiKey" | "session" | "schedulerSecret" | "adminToken" | "none";
export type IdempotencyRule = "required" | "optional" | "none";

export interface Operation {
  operationId: string;
  method: string;
  pathTemplate: string;
  surface: Surface;
  security: Security;
  /** A member's session (cookie) is accepted: the operation's first scheme is `session`, or a later requirement lists it
   * (approving and rejecting keep the bearer scheme listed, yet only people decide: server/domain/approvals). */
  sessionAccepted: boolean;
  /** Scopes from the security requirement's roles; empty when the handler decides (providers/invoke). */
  scopes: string[];
  idempotency: IdempotencyRule;
  /** v1 wallets, payments and balances answer 403 to production keys. */
  sandboxOnly: boolean;
  /** The 503 codes the operation documents (its `x-error-codes`), e.g. STORAGE_UNAVAILABLE. */
  unavailableCodes: string[];
  /** Query parameters of type integer: they arrive as text and reach the handler as numbers. */
  integerQuery: string[];
  /** The operation declares a request body (others ignore whatever body is sent). */
  takesBody: boolean;
  /** `x-seal-stored-answer`: the answer carries a secret, so the Idempotency-Key's stored copy is sealed at rest. */
  sealStoredAnswer: boolean;
  /** `deprecated: true` with its `x-deprecated-at` and `x-sunset` dates (docs/compatibility.md): answered with the
   * Deprecation and Sunset headers (server/middleware/deprecation-headers.ts). Absent on a live operation. */
  deprecation?: Deprecation;
}

export interface Deprecation {
  /** When the operation is (or was) deprecated: `x-deprecated-at`, a date (YYYY-MM-DD, UTC). */
  deprecatedAt: Date;
  /** When it may be removed: `x-sunset`, a date (YYYY-MM-DD, UTC). */
  sunset: Date;
}

export type OperationMatch =
  | { kind: "found"; operation: Operation; params: Record<string, string> }
  | { kind: "method_not_allowed"; surface: Surface; allowed: string[] }
  | { kind: "not_found"; surface: Surface }
  /** A path parameter is not valid percent-encoded UTF-8 or decodes to a NUL: no database can store or look it up. */
  | { kind: "malformed_path"; surface: Surface; param: string };

const METHODS = ["get", "put", "post", "delete", "patch", "head", "options"];

export function surfaceOf(path: string): Surface {
  if (path.startsWith("/api/v2/")) return "v2";
  if (path.startsWith("/api/metric")) return "metric";
  if (path.startsWith("/api/admin")) return "admin";
  if (path.startsWith("/api/v1")) return "v1";
  return "health";
}

function securityOf(op: Record<string, unknown>, doc: OpenApiDocument): { security: Security; scopes: string[]; sessionAccepted: boolean } {
  const requirements = (op.security ?? doc.security ?? []) as Array<Record<string, string[]>>;
  const first = requirements[0];
  const sessionAccepted = requirements.some((r) => Object.hasOwn(r, "session"));
  if (!first || Object.keys(first).length === 0) return { security: "none", scopes: [], sessionAccepted };
  const [scheme, roles] = Object.entries(first)[0] as [string, string[]];
  return { security: scheme as Security, scopes: roles, sessionAccepted };
}

function idempotencyOf(op: Record<string, unknown>, doc: OpenApiDocument): IdempotencyRule {
  const params = (op.parameters ?? []) as Array<Record<string, unknown>>;
  for (const raw of params) {
    const param = deref(doc, raw);
    if (param.in === "header" && String(param.name).toLowerCase() === "idempotency-key") {
      return param.required ? "required" : "optional";
    }
  }
  return "none";
}

function integerQueryOf(item: Record<string, unknown>, op: Record<string, unknown>, doc: OpenApiDocument): string[] {
  const declared = [
    ...((item.parameters ?? []) as Array<Record<string, unknown>>),
    ...((op.parameters ?? []) as Array<Record<string, unknown>>),
  ];
  return declared
    .map((raw) => deref(doc, raw))
    .filter((p) => p.in === "query" && deref(doc, p.schema).type === "integer")
    .map((p) => String(p.name));
}

function unavailableCodesOf(op: Record<string, unknown>): string[] {
  return [...(errorCodesFor(op, 503) ?? [])];
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A deprecated operation's dates; a deprecated operation without both (or with sunset before deprecation) is a spec
 * error, reported at start-up rather than answered without its headers. */
export function deprecationOf(op: Record<string, unknown>): Deprecation | undefined {
  if (op.deprecated !== true) return undefined;
  const date = (key: string): Date => {
    const value = op[key];
    const parsed = typeof value === "string" && DATE.test(value) ? new Date(`${value}T00:00:00Z`) : undefined;
    if (!parsed || Number.isNaN(parsed.getTime()))
      throw new Error(`${String(op.operationId)} is deprecated but its ${key} is not a date (YYYY-MM-DD): ${String(value)}`);
    return parsed;
  };
  const deprecation = { deprecatedAt: date("x-deprecated-at"), sunset: date("x-sunset") };
  if (deprecation.sunset <= deprecation.deprecatedAt)
    throw new Error(`${String(op.operationId)}: x-sunset must come after x-deprecated-at`);
  return deprecation;
}

export class OperationIndex {
  private readonly paths: PathTemplates<Map<string, Operation>>;
  private readonly byTemplate = new Map<string, Map<string, Operation>>();
  readonly all: Operation[] = [];

  constructor(doc: OpenApiDocument) {
    for (const [template, item] of Object.entries(doc.paths)) {
      const operations = new Map<string, Operation>();
      for (const method of METHODS) {
        const op = (item as Record<string, unknown>)[method] as Record<string, unknown> | undefined;
        if (!op) continue;
        const surface = surfaceOf(template);
        const operation: Operation = {
          operationId: String(op.operationId),
          method: method.toUpperCase(),
          pathTemplate: template,
          surface,
          ...securityOf(op, doc),
          idempotency: idempotencyOf(op, doc),
          sandboxOnly: surface === "v1",
          unavailableCodes: unavailableCodesOf(op),
          integerQuery: integerQueryOf(item as Record<string, unknown>, op, doc),
          sealStoredAnswer: op["x-seal-stored-answer"] === true,
          takesBody: op.requestBody !== undefined,
        };
        const deprecation = deprecationOf(op);
        if (deprecation) operation.deprecation = deprecation;
        operations.set(operation.method, operation);
        this.all.push(operation);
      }
      this.byTemplate.set(template, operations);
    }
    this.paths = new PathTemplates(this.byTemplate);
  }

  match(method: string, path: string): OperationMatch {
    const surface = surfaceOf(path);
    const matched = this.paths.match(path);
    if (!matched) return { kind: "not_found", surface };
    const operation = matched.value.get(method === "HEAD" ? "GET" : method);
    if (!operation) return { kind: "method_not_allowed", surface, allowed: [...matched.value.keys()] };
    if ("malformedParam" in matched) return { kind: "malformed_path", surface, param: matched.malformedParam };
    return { kind: "found", operation, params: matched.params };
  }

  /** The operation of a spec path template (as the validator reports its match) and method; HEAD is not one. */
  byRoute(template: string, method: string): Operation | undefined {
    return this.byTemplate.get(template)?.get(method);
  }

  byId(operationId: string): Operation | undefined {
    return this.all.find((o) => o.operationId === operationId);
  }
}
