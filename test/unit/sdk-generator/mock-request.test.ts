import { describe, expect, it } from "vitest";
import { allScopes, mockRequest, requestSchemas, stripSchema } from "../../../scripts/sdk-generator/mock-request.ts";
import { json, only, ref, spec } from "./fixtures.ts";

describe("stripSchema", () => {
  it("drops documentation keywords where a schema is expected, never a property called like one", () => {
    const schema = {
      type: "object",
      description: "A widget.",
      "x-internal": true,
      properties: {
        description: { type: "string", example: "x", title: "Description" },
        tags: { type: "array", items: { type: "string", examples: ["a"] } },
      },
      oneOf: [{ required: ["description"], deprecated: true }],
    };
    expect(stripSchema(spec({}), schema)).toEqual({
      type: "object",
      properties: { description: { type: "string" }, tags: { type: "array", items: { type: "string" } } },
      oneOf: [{ required: ["description"] }],
    });
  });

  it("keeps $refs, or resolves them inline", () => {
    const doc = spec({}, { Name: { type: "string", maxLength: 9, description: "d" } });
    expect(stripSchema(doc, { properties: { n: ref("Name") } })).toEqual({ properties: { n: ref("Name") } });
    expect(stripSchema(doc, { properties: { n: ref("Name") } }, true)).toEqual({ properties: { n: { type: "string", maxLength: 9 } } });
  });
});

describe("mockRequest and requestSchemas", () => {
  const doc = spec(
    {
      "/api/v2/agent/widgets/{widgetId}": {
        parameters: [{ name: "widgetId", in: "path", required: true, schema: ref("WidgetId") }],
        post: {
          operationId: "renameWidget",
          parameters: [{ name: "Idempotency-Key", in: "header", required: true, schema: { type: "string", maxLength: 255 } }],
          requestBody: { required: true, ...json(ref("Rename")) },
          responses: {},
        },
      },
    },
    {
      WidgetId: { type: "string", pattern: "^wid_" },
      Rename: { type: "object", additionalProperties: false, properties: { name: ref("Name") } },
      Name: { type: "string", description: "The name." },
      Unused: { type: "string" },
    },
  );

  it("takes the path item's parameters too, header names lower case, parameter schemas inline; the body keeps its refs", () => {
    expect(mockRequest(doc, only(doc))).toEqual({
      parameters: [
        { name: "widgetId", in: "path", required: true, schema: { type: "string", pattern: "^wid_" } },
        { name: "idempotency-key", in: "header", required: true, schema: { type: "string", maxLength: 255 } },
      ],
      body: { required: true, contentTypes: ["application/json"], schema: ref("Rename") },
    });
  });

  it("emits every component schema a body reaches, once, and no other", () => {
    expect(requestSchemas(doc, [mockRequest(doc, only(doc))])).toEqual({
      Name: { type: "string" },
      Rename: { type: "object", additionalProperties: false, properties: { name: ref("Name") } },
    });
  });

  it("refuses a body without a JSON media type", () => {
    const form = spec({
      "/api/v2/agent/forms": {
        post: { operationId: "postForm", requestBody: { content: { "multipart/form-data": { schema: {} } } }, responses: {} },
      },
    });
    expect(() => mockRequest(form, only(form))).toThrow(/without a JSON media type/);
  });
});

describe("allScopes", () => {
  it("expands the Scope pattern; none without it; a pattern of another form fails the generation", () => {
    expect(allScopes(spec({}, { Scope: { type: "string", pattern: "^(wallets|fx):(read|write)$" } }))).toEqual([
      "wallets:read",
      "wallets:write",
      "fx:read",
      "fx:write",
    ]);
    expect(allScopes(spec({}))).toEqual([]);
    expect(() => allScopes(spec({}, { Scope: { type: "string", pattern: "^[a-z]+:[a-z]+$" } }))).toThrow(/Scope/);
  });
});
