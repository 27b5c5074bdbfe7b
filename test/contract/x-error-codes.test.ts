// The error responses of the contract are shared per status and surface (openapi/components/responses/); what one
// operation answers is its `x-error-codes` (docs/design.md "Error responses in the contract"). These checks keep that list
// true to the server's code table and to the responses it stands beside, and keep the components one per status — a
// component per set of codes is what made generators emit one alias type per combination (issue 30).
import { describe, expect, it } from "vitest";
import { ERROR_CODES } from "../../server/errors/codes.ts";
import { toServiceError } from "../../server/errors/to-service-error.ts";
import { errorCodesOf } from "../../server/spec/error-codes-of.ts";
import { loadSpec } from "../../server/spec/load-spec.ts";
import { OperationIndex } from "../../server/spec/operations.ts";

type Json = Record<string, unknown>;
const spec = loadSpec() as unknown as Json & { paths: Record<string, Json> };
const METHODS = ["get", "put", "post", "delete", "patch"];
const RESPONSES = "#/components/responses/";
// The status names of the shared components: `V2Conflict`, `V1BadRequest`, `PeopleNotFound`, …
const STATUS_NAMES: Record<string, string> = {
  400: "BadRequest",
  401: "Unauthorized",
  403: "Forbidden",
  404: "NotFound",
  409: "Conflict",
  413: "PayloadTooLarge",
  415: "UnsupportedMediaType",
  422: "Unprocessable",
  424: "FailedDependency",
  429: "TooManyRequests",
  500: "InternalError",
  501: "NotImplemented",
  502: "BadGateway",
  503: "ServiceUnavailable",
};
const SURFACES = ["V1", "V2", "Admin", "People", "Scheduler"];

const resolve = (node: unknown): Json => {
  const ref = (node as Json | undefined)?.$ref;
  if (typeof ref !== "string") return (node ?? {}) as Json;
  return resolve(
    ref
      .slice(2)
      .split("/")
      .reduce<Json>((o, k) => o[k] as Json, spec),
  );
};

const operations = Object.entries(spec.paths).flatMap(([template, item]) =>
  METHODS.filter((m) => item[m]).map((m) => ({ where: `${m.toUpperCase()} ${template}`, op: item[m] as Json })),
);
const errorResponses = (op: Json) =>
  Object.entries((op.responses ?? {}) as Record<string, Json>).filter(([status]) => /^[45]\d\d$/.test(status));

/** Whether the server's code table has `code` with `status`: a v2 code by name, a v1/admin code by its lower-case form. */
function inTable(code: string, status: number): boolean {
  if (code in ERROR_CODES) return ERROR_CODES[code as keyof typeof ERROR_CODES].status === status;
  return Object.values(ERROR_CODES).some((entry) => entry.v1 === code && entry.status === status);
}

describe("x-error-codes", () => {
  it.each(operations)("$where: lists every error response it refers to, and only those", ({ op }) => {
    const listed = Object.keys(errorCodesOf(op)).sort();
    const shared = errorResponses(op)
      .filter(([, response]) => String(response.$ref ?? "").startsWith(RESPONSES))
      .map(([status]) => status)
      .sort();
    expect(listed).toEqual(shared);
    for (const codes of Object.values(errorCodesOf(op))) expect(codes.length).toBeGreaterThan(0);
  });

  it.each(operations)("$where: every code is in the server's code table with the same status", ({ op }) => {
    const wrong = Object.entries(errorCodesOf(op)).flatMap(([status, codes]) =>
      codes.filter((code) => !inTable(code, Number(status))).map((code) => `${status} ${code}`),
    );
    expect(wrong).toEqual([]);
  });

  // A reader (the portal, the mock) still finds an example of each code the operation answers, in its surface's shape.
  it.each(operations)("$where: every code has an example in the response it lists it for", ({ op }) => {
    const missing: string[] = [];
    for (const [status, codes] of Object.entries(errorCodesOf(op))) {
      const content = (resolve((op.responses as Json)[status]).content ?? {}) as Record<string, Json>;
      const problem = content["application/problem+json"];
      const examples = Object.values((problem?.examples ?? {}) as Json).map((ex) => resolve(ex).value as Json);
      for (const code of codes) {
        if (problem && !examples.some((value) => value?.code === code)) missing.push(`${status} ${code}`);
        // The v1 shape carries one example per status; its codes are lower snake case, the problem's upper.
        if (!problem && code !== code.toLowerCase()) missing.push(`${status} ${code} (not a v1 code)`);
        if (problem && code !== code.toUpperCase()) missing.push(`${status} ${code} (not a v2 code)`);
      }
    }
    expect(missing).toEqual([]);
  });

  // The expectations are written out, not computed with errorCodesOf (the function the server itself reads them with):
  // a reading that lost or invented a code would otherwise agree with itself. A change to a 503 list in openapi/ shows
  // here on purpose.
  const V2_WRITE = ["IDEMPOTENCY_UNAVAILABLE", "RATE_LIMIT_UNAVAILABLE", "SERVICE_UNAVAILABLE"];
  const UNAVAILABLE_CODES: Record<string, string[]> = {
    getHealth: [],
    listWallets: ["idempotency_unavailable", "rate_limit_unavailable", "service_unavailable"],
    adminListApiKeys: ["service_unavailable"],
    listContractProjects: ["RATE_LIMIT_UNAVAILABLE", "SERVICE_UNAVAILABLE"],
    dispatchCorridorWorkflows: ["SERVICE_UNAVAILABLE"],
    createCustodyWallet: [...V2_WRITE, "SOURCE_NOT_AVAILABLE"],
    requestBurn: [...V2_WRITE, "SOURCE_NOT_AVAILABLE", "STORAGE_UNAVAILABLE"],
    deployContract: [...V2_WRITE, "STORAGE_UNAVAILABLE"],
    compileContract: ["COMPILER_UNAVAILABLE", ...V2_WRITE, "STORAGE_UNAVAILABLE"],
  };
  const index = new OperationIndex(spec as never);
  const byId = new Map(index.all.map((operation) => [operation.operationId, operation]));

  it.each(Object.entries(UNAVAILABLE_CODES))("the server reads %s's 503 codes as %j", (operationId, codes) => {
    expect([...(byId.get(operationId)?.unavailableCodes ?? ["(no such operation)"])].sort()).toEqual([...codes].sort());
  });

  // What the server answers when the database cannot be reached (a refused connection): STORAGE_UNAVAILABLE where the
  // operation documents it, SERVICE_UNAVAILABLE elsewhere — never a code the operation's contract does not list.
  it.each([
    ["requestBurn", "STORAGE_UNAVAILABLE"],
    ["deployContract", "STORAGE_UNAVAILABLE"],
    ["createCustodyWallet", "SERVICE_UNAVAILABLE"],
    ["dispatchCorridorWorkflows", "SERVICE_UNAVAILABLE"],
  ])("a storage fault in %s answers 503 %s", (operationId, code) => {
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
    const { error, unexpected } = toServiceError(refused, { unavailableCodes: byId.get(operationId)?.unavailableCodes });
    expect({ status: error.status, code: error.code, unexpected }).toEqual({ status: 503, code, unexpected: false });
  });

  it("every operation's 503 codes are its x-error-codes[503] as written in the spec", () => {
    for (const operation of index.all) {
      const op = spec.paths[operation.pathTemplate]?.[operation.method.toLowerCase()] as Json;
      const written = ((op["x-error-codes"] ?? {}) as Record<string, string[]>)["503"] ?? [];
      expect(operation.unavailableCodes, operation.operationId).toEqual(written);
    }
  });
});

describe("the shared error responses", () => {
  const components = Object.entries(((spec.components as Json).responses ?? {}) as Record<string, Json>);

  it("are one per status and surface, named for them (no component per set of codes)", () => {
    const names = components.map(([name]) => name);
    const allowed = SURFACES.flatMap((surface) => Object.values(STATUS_NAMES).map((status) => `${surface}${status}`));
    expect(names.filter((name) => !allowed.includes(name))).toEqual([]);
    expect(names.length).toBeLessThanOrEqual(SURFACES.length * Object.keys(STATUS_NAMES).length);
  });

  it("carry examples of their own status only, each named by its code", () => {
    const wrong: string[] = [];
    for (const [name, response] of components) {
      const status = Object.keys(STATUS_NAMES).find((s) => name.endsWith(STATUS_NAMES[s] as string));
      for (const media of Object.values((response.content ?? {}) as Record<string, Json>)) {
        for (const [example, ref] of Object.entries((media.examples ?? {}) as Json)) {
          const value = resolve(ref).value as { status?: number; code?: string };
          if (`${value.code} ${value.status}` !== `${example} ${status}`) wrong.push(`${name} ${example}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it("are each used by an operation", () => {
    const used = new Set(
      operations.flatMap(({ op }) => errorResponses(op).map(([, response]) => String(response.$ref ?? "").slice(RESPONSES.length))),
    );
    expect(components.map(([name]) => name).filter((name) => !used.has(name))).toEqual([]);
  });
});
