import { describe, expect, it } from "vitest";
import { documentedErrorCodes, errorCodes, v1ErrorCodes } from "../../../scripts/sdk-generator/error-codes.ts";
import { specOperations } from "../../../scripts/sdk-generator/spec.ts";
import { json, only, spec } from "./fixtures.ts";

const problem = (code: string) => ({ value: { code, requestId: "req_1" } });
const V1Error = { type: "object", properties: { code: { type: "string", enum: ["not_found", "bad_request"] } } };

describe("documentedErrorCodes", () => {
  it.each([
    [
      "4xx and 5xx examples",
      { "404": json({}, { examples: { a: problem("NOT_FOUND") } }), "503": json({}, { examples: { b: problem("DOWN") } }) },
      ["NOT_FOUND", "DOWN"],
    ],
    ["not success examples", { "200": json({}, { examples: { ok: { value: { code: "LOOKS_LIKE_ONE" } } } }) }, []],
    ["a single `example`", { "409": json({}, { example: { code: "CONFLICT" } }) }, ["CONFLICT"]],
    ["examples behind $refs", { "400": json({}, { examples: { v: { $ref: "#/components/examples/Invalid" } } }) }, ["VALIDATION_ERROR"]],
    ["not examples without a string code", { "500": json({}, { examples: { x: { value: { code: 5 } } } }) }, []],
    ["not non-JSON responses", { "406": { content: { "text/plain": { example: { code: "TEXT" } } } } }, []],
  ])("%s", (_name, responses, codes) => {
    const doc = spec({ "/api/v2/agent/widgets": { get: { operationId: "getWidgets", responses } } });
    doc.components = { ...doc.components, examples: { Invalid: problem("VALIDATION_ERROR") } };
    expect(documentedErrorCodes(doc, only(doc))).toEqual(codes);
  });
});

describe("errorCodes", () => {
  it("joins the V1Error enum and every operation's codes, deduplicated and sorted", () => {
    const doc = spec(
      {
        "/api/v2/agent/a": { get: { operationId: "a", responses: { "404": json({}, { examples: { n: problem("NOT_FOUND") } }) } } },
        "/api/v2/agent/b": {
          get: { operationId: "b", responses: { "404": json({}, { examples: { n: problem("NOT_FOUND"), c: problem("CONFLICT") } }) } },
        },
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
