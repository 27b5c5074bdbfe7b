import { describe, expect, it } from "vitest";
import { documentedErrorCodes, errorCodes, v1ErrorCodes } from "../../../scripts/sdk-generator/error-codes.ts";
import { specOperations } from "../../../scripts/sdk-generator/spec.ts";
import { json, only, spec } from "./fixtures.ts";

const problem = (code: string) => ({ value: { code, requestId: "req_1" } });
const V1Error = { type: "object", properties: { code: { type: "string", enum: ["not_found", "bad_request"] } } };

describe("documentedErrorCodes", () => {
  it("reads the operation's x-error-codes, every status", () => {
    const doc = spec({
      "/api/v2/agent/widgets": { get: { operationId: "getWidgets", "x-error-codes": { "404": ["NOT_FOUND"], "503": ["DOWN", "AWAY"] } } },
    });
    expect(documentedErrorCodes(only(doc))).toEqual(["NOT_FOUND", "DOWN", "AWAY"]);
  });

  // The response components are shared per status, so their examples name codes of other operations too.
  it("not the examples of the (shared) response", () => {
    const responses = { "404": json({}, { examples: { NOT_FOUND: problem("NOT_FOUND"), GONE: problem("GONE") } }) };
    const doc = spec({
      "/api/v2/agent/widgets": { get: { operationId: "getWidgets", "x-error-codes": { "404": ["NOT_FOUND"] }, responses } },
    });
    expect(documentedErrorCodes(only(doc))).toEqual(["NOT_FOUND"]);
  });

  it("none when the operation declares none", () => {
    expect(documentedErrorCodes(only(spec({ "/api/v2/agent/widgets": { get: { operationId: "getWidgets" } } })))).toEqual([]);
  });

  it("refuses an x-error-codes that is not status → codes", () => {
    const doc = spec({ "/api/v2/agent/widgets": { get: { operationId: "getWidgets", "x-error-codes": { "200": ["OK"] } } } });
    expect(() => documentedErrorCodes(only(doc))).toThrow(/x-error-codes\["200"\]/);
  });
});

describe("errorCodes", () => {
  it("joins the V1Error enum and every operation's codes, deduplicated and sorted", () => {
    const doc = spec(
      {
        "/api/v2/agent/a": { get: { operationId: "a", "x-error-codes": { "404": ["NOT_FOUND"] } } },
        "/api/v2/agent/b": { get: { operationId: "b", "x-error-codes": { "404": ["NOT_FOUND"], "409": ["CONFLICT"] } } },
      },
      { V1Error },
    );
    expect(errorCodes(doc, specOperations(doc))).toEqual(["CONFLICT", "NOT_FOUND", "bad_request", "not_found"]);
  });

  it("has no v1 codes when the spec has no V1Error schema", () => {
    expect(v1ErrorCodes(spec({}))).toEqual([]);
    expect(v1ErrorCodes(spec({}, { V1Error }))).toEqual(["not_found", "bad_request"]);
  });
});
