// Judges one fuzz response: never 5xx, every 4xx in its surface's documented error shape with a code the operation
// declares for that status, and nothing internal (stack traces, file paths, SQL, ORM messages) in any error body.
import { ERROR_CODES } from "../../server/errors/codes.ts";
import { errorCodesFor } from "../../server/spec/error-codes-of.ts";
import type { OpenApiDocument } from "../../server/spec/load-spec.ts";
import { OperationIndex, surfaceOf } from "../../server/spec/operations.ts";
import type { FuzzResponse } from "./fuzz-http.ts";
import type { FuzzRequest } from "./fuzz-requests.ts";
import { SchemaReader } from "./fuzz-schema.ts";

type Json = Record<string, unknown>;

const LEAKS: Array<[string, RegExp]> = [
  ["stack frame", /\bat (?:[\w$.<>]+ )?\(?(?:file:|node:|\/)[^\s)]*:\d+:\d+/],
  ["source file path", /(?:\/work\/|\/home\/|node_modules|[\w-]+\.(?:ts|js|mjs|cjs):\d+)/],
  ["SQL text", /\b(?:SELECT\b[\s\S]{0,200}\bFROM|INSERT INTO|DELETE FROM|UPDATE "\w+" SET|ON CONFLICT)\b/],
  [
    "database error",
    /(?:violates (?:unique|foreign key|check|not-null) constraint|duplicate key value|syntax error at or near|relation "\w+" does not exist|invalid input syntax for|SQLSTATE|\bP\d{4}\b.*prisma)/i,
  ],
  ["ORM internals", /(?:Prisma|PrismaClient|\$queryRaw|PGlite|invocation:)/],
  ["JS error internals", /(?:TypeError|ReferenceError|RangeError|SyntaxError: Unexpected token|Cannot read propert)/],
];

const V1_CODES = new Set<string>(Object.values(ERROR_CODES).map((c) => c.v1));
const V1_KEYS = new Set(["error", "code", "requestId", "errors"]);

export class ResponseJudge {
  private readonly index: OperationIndex;
  private readonly schemas: SchemaReader;

  private readonly doc: OpenApiDocument;

  constructor(doc: OpenApiDocument) {
    this.doc = doc;
    this.index = new OperationIndex(doc);
    this.schemas = new SchemaReader(doc);
  }

  /** Codes the spec names for an operation's status: its `x-error-codes` for the status; for a response it does not list
   * there, the problem+json example names (v2), or the backticked lower-case codes of the response description and the
   * example codes (v1, metrics, admin). Empty when it names none. */
  declaredCodes(method: string, pathTemplate: string, status: number): Set<string> | undefined {
    const op = (this.doc.paths[pathTemplate] as Json | undefined)?.[method.toLowerCase()] as Json | undefined;
    const response = this.schemas.resolve(((op?.responses ?? {}) as Json)[String(status)]);
    if (!response || !op) return undefined;
    const listed = errorCodesFor(op, status);
    if (listed) return new Set(listed);
    const codes = new Set<string>();
    for (const media of Object.values((response.content ?? {}) as Record<string, Json>)) {
      for (const [name, example] of Object.entries((media.examples ?? {}) as Json)) {
        codes.add(name);
        const value = this.schemas.resolve(example)?.value as Json | undefined;
        if (typeof value?.code === "string") codes.add(value.code);
      }
      const single = media.example as Json | undefined;
      if (typeof single?.code === "string") codes.add(single.code);
    }
    // v1-style responses name their codes in the description (`invalid_request` — …); problem+json ones by example.
    if (codes.size === 0 || !("application/problem+json" in ((response.content ?? {}) as Json)))
      for (const match of String(response.description ?? "").matchAll(/`([a-z][a-z_]+|[A-Z][A-Z_]+)`/g)) codes.add(match[1] as string);
    return codes;
  }

  /** Every problem with this response, as readable lines (empty when it is fine). */
  judge(request: FuzzRequest, response: FuzzResponse): string[] {
    const problems: string[] = [];
    const { status } = response;
    if (status === 0) return [`connection failed: ${response.clientError}`];
    if (status >= 500) problems.push(`${status} answered`);
    if (typeof response.headers["x-request-id"] !== "string") problems.push("no X-Request-Id header");
    if (request.expect && !request.expect.includes(status)) problems.push(`expected ${request.expect.join(" or ")}, got ${status}`);
    if (status < 400) return problems;

    const pathname = request.path.split("?")[0] as string;
    const surface = surfaceOf(pathname);
    const body = response.json as Json | undefined;
    const contentType = String(response.headers["content-type"] ?? "");
    const requestId = response.headers["x-request-id"];
    // An idempotent replay returns the stored answer verbatim, with the first request's requestId in the body.
    const replayed = response.headers["idempotent-replayed"] === "true";
    let code: string | undefined;
    if (typeof body !== "object" || body === null || Array.isArray(body)) {
      problems.push("error body is not a JSON object");
    } else if (surface === "v2") {
      code = typeof body.code === "string" ? body.code : undefined;
      if (!/^application\/problem\+json/.test(contentType)) problems.push(`v2 error with content-type ${contentType}`);
      if (code === undefined || !(code in ERROR_CODES)) problems.push(`unknown v2 code ${String(body.code)}`);
      else if (ERROR_CODES[code as keyof typeof ERROR_CODES].status !== status) problems.push(`code ${code} on status ${status}`);
      if (body.status !== status) problems.push(`problem status ${String(body.status)} ≠ HTTP ${status}`);
      if (typeof body.title !== "string" || body.title === "") problems.push("problem without title");
      if (code && body.type !== `https://docs.coinplane.dev/errors/${code.toLowerCase()}`)
        problems.push(`problem type ${String(body.type)}`);
      if (body.requestId !== requestId && !replayed)
        problems.push(`requestId ${String(body.requestId)} ≠ X-Request-Id ${String(requestId)}`);
    } else {
      code = typeof body.code === "string" ? body.code : undefined;
      if (!/^application\/json/.test(contentType)) problems.push(`${surface} error with content-type ${contentType}`);
      const extra = Object.keys(body).filter((k) => !V1_KEYS.has(k));
      if (extra.length > 0) problems.push(`${surface} error with extra keys ${extra.join(", ")}`);
      if (typeof body.error !== "string") problems.push(`${surface} error without an error message`);
      if (code === undefined || !V1_CODES.has(code)) problems.push(`unknown ${surface} code ${String(body.code)}`);
      else if (!Object.values(ERROR_CODES).some((c) => c.v1 === code && c.status === status))
        problems.push(`code ${code} on status ${status}`);
      if (body.requestId !== requestId && !replayed)
        problems.push(`requestId ${String(body.requestId)} ≠ X-Request-Id ${String(requestId)}`);
    }

    const match = this.index.match(request.method, pathname);
    if (match.kind === "found" && code !== undefined) {
      const declared = this.declaredCodes(request.method, match.operation.pathTemplate, status);
      if (declared === undefined) {
        problems.push(`status ${status} is not declared for ${match.operation.operationId}`);
      } else if (declared.size > 0 && !declared.has(code)) {
        problems.push(`code ${code} is not declared for ${match.operation.operationId} ${status} (declared: ${[...declared].join(", ")})`);
      }
    } else if (match.kind !== "found" && ![400, 404, 405, 413, 415].includes(status)) {
      problems.push(`an unrouted request answered ${status}`);
    }

    for (const [name, pattern] of LEAKS) {
      const found = pattern.exec(stripEchoes(response, request));
      if (found) problems.push(`error body leaks ${name}: ${JSON.stringify(found[0].slice(0, 120))}`);
    }
    return problems;
  }
}

/** The response's strings with the request's own path and strings removed, so a message quoting the input is not a
 * "leak". Scans parsed strings (not the JSON text) so escaping cannot hide or fake a match. */
function stripEchoes(response: FuzzResponse, request: FuzzRequest): string {
  let out = response.json === undefined ? response.text : collectStrings(response.text).join("\n");
  const body = typeof request.body === "string" ? request.body : undefined;
  const echoes = [request.path, ...(body ? collectStrings(body) : [])].filter((s) => s.length >= 4).sort((a, b) => b.length - a.length);
  for (const echo of echoes) out = out.split(echo).join("");
  return out;
}

function collectStrings(json: string): string[] {
  try {
    const out: string[] = [];
    JSON.parse(json, (key, value) => {
      out.push(key);
      if (typeof value === "string") out.push(value);
      return value;
    });
    return out;
  } catch {
    return [];
  }
}
