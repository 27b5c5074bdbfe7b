// Checks one response against the bundled spec: the status is declared for the operation, every header it carries is
// declared (except HTTP framing and helmet's hardening headers, the same on every response), every header the spec
// marks `required` is there with a value its schema accepts, and the body matches the declared schema of that status and
// media type. Used by the test server (every test/http response) and by the validating proxy (test/contract).
import type { OpenApiDocument } from "../../server/spec/load-spec.ts";
import { OperationIndex } from "../../server/spec/operations.ts";
import { SpecValidator } from "../sdk/spec-validator.ts";

type Json = Record<string, unknown>;

/** Headers no operation declares: HTTP framing, and helmet's browser-hardening headers (the description's "Requests"). */
export const UNDECLARED_HEADERS = new Set([
  "content-type",
  "content-length",
  "date",
  "connection",
  "keep-alive",
  "transfer-encoding",
  "vary",
  "content-security-policy",
  "cross-origin-opener-policy",
  "cross-origin-resource-policy",
  "origin-agent-cluster",
  "referrer-policy",
  "strict-transport-security",
  "x-content-type-options",
  "x-dns-prefetch-control",
  "x-download-options",
  "x-frame-options",
  "x-permitted-cross-domain-policies",
  "x-xss-protection",
]);

export interface ObservedResponse {
  method: string;
  /** Request path, with or without its query string. */
  path: string;
  status: number;
  /** Lower-case header names → value. */
  headers: Record<string, string | string[] | undefined>;
  /** Raw body text ("" when none). */
  body: string;
}

export interface ContractFinding {
  operationId: string;
  method: string;
  path: string;
  status: number;
  problem: string;
}

const escapePointer = (s: string) => s.replace(/~/g, "~0").replace(/\//g, "~1");

export class ResponseContract {
  private readonly index: OperationIndex;
  private readonly bodies: SpecValidator;

  constructor(doc: OpenApiDocument) {
    this.index = new OperationIndex(doc);
    this.bodies = new SpecValidator(doc);
  }

  private node(pointer: string): Json | undefined {
    return this.bodies.node(pointer);
  }

  /** Follows `$ref`s; returns the node and the pointer it was found at. */
  private deref(pointer: string): { node: Json | undefined; pointer: string } {
    let node = this.node(pointer);
    while (typeof node?.$ref === "string") {
      pointer = node.$ref;
      node = this.node(pointer);
    }
    return { node, pointer };
  }

  /** The spec operation a request is for, if any. */
  operationId(method: string, pathname: string): string | undefined {
    const match = this.index.match(method, pathname);
    return match.kind === "found" ? match.operation.operationId : undefined;
  }

  /** Problems with this response (empty when it keeps the contract); `undefined` when the request matched no operation. */
  check(response: ObservedResponse): ContractFinding[] | undefined {
    const pathname = response.path.split("?")[0] as string;
    const match = this.index.match(response.method, pathname);
    if (match.kind !== "found") return undefined;
    const { operationId, pathTemplate, method } = match.operation;
    const findings: ContractFinding[] = [];
    const report = (problem: string) => findings.push({ operationId, method, path: pathname, status: response.status, problem });

    const responsesPointer = `#/paths/${escapePointer(pathTemplate)}/${method.toLowerCase()}/responses`;
    const declared = this.node(responsesPointer) ?? {};
    const key = [String(response.status), `${String(response.status)[0]}XX`, "default"].find((k) => k in declared);
    if (!key) {
      report(`status ${response.status} is not declared (declared: ${Object.keys(declared).join(", ")})`);
      return findings;
    }
    const { node: declaredResponse, pointer } = this.deref(`${responsesPointer}/${key}`);
    const headers = (declaredResponse?.headers ?? {}) as Record<string, Json>;
    const declaredNames = new Map(Object.keys(headers).map((name) => [name.toLowerCase(), name]));

    for (const [name, value] of Object.entries(response.headers)) {
      if (value === undefined || UNDECLARED_HEADERS.has(name)) continue;
      const declaredName = declaredNames.get(name);
      if (!declaredName) {
        report(`header ${name} is not declared`);
        continue;
      }
      const problem = this.checkHeaderValue(`${pointer}/headers/${escapePointer(declaredName)}`, String(value));
      if (problem) report(`header ${name}: ${problem}`);
    }
    for (const [name, raw] of Object.entries(headers)) {
      const header = this.deref(`${pointer}/headers/${escapePointer(name)}`).node ?? raw;
      if (header.required === true && response.headers[name.toLowerCase()] === undefined) report(`required header ${name} is missing`);
    }

    const contentType = response.headers["content-type"];
    let body: unknown = response.body === "" ? undefined : response.body;
    if (typeof contentType === "string" && /json/.test(contentType) && response.body !== "") {
      try {
        body = JSON.parse(response.body);
      } catch {
        report("body is not valid JSON");
        return findings;
      }
    }
    const content = (declaredResponse?.content ?? {}) as Json;
    if (Object.keys(content).length === 0 && body === undefined) return findings;
    if (response.method === "HEAD") return findings;
    for (const problem of this.bodies.check(
      method,
      pathTemplate,
      response.status,
      typeof contentType === "string" ? contentType : null,
      body,
    ))
      report(problem);
    return findings;
  }

  private checkHeaderValue(pointer: string, value: string): string | undefined {
    const { node: header, pointer: headerPointer } = this.deref(pointer);
    const schema = this.deref(`${headerPointer}/schema`).node;
    if (!header || !schema) return undefined;
    const validate = this.bodies.validatorFor(`${headerPointer}/schema`);
    const typed = schema.type === "integer" && /^-?[0-9]+$/.test(value) ? Number(value) : value;
    if (validate(typed)) return undefined;
    return `${JSON.stringify(value)} ${(validate.errors ?? []).map((e) => e.message).join("; ")}`;
  }
}

export const formatFinding = (f: ContractFinding) => `${f.method} ${f.path} (${f.operationId}) → ${f.status}: ${f.problem}`;
