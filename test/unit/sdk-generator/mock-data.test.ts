import { describe, expect, it } from "vitest";
import {
  ExampleValues,
  echoFields,
  idFieldOf,
  mockData,
  paramConstraints,
  resourceSchemaOf,
} from "../../../scripts/sdk-generator/mock-data.ts";
import type { ListDeclaration } from "../../../scripts/sdk-generator/pagination.ts";
import { type Json, specOperations } from "../../../scripts/sdk-generator/spec.ts";
import { json, ref, spec } from "./fixtures.ts";

const obj = (properties: Json, required: string[] = []) => ({ type: "object", properties, required });

describe("idFieldOf", () => {
  it.each([
    ["`id` wins", obj({ widgetId: {}, id: {} }), "id"],
    ["else <schema>Id", obj({ ownerId: {}, thingId: {} }, ["ownerId"]), "thingId"],
    ["else the first required …Id", obj({ ownerId: {}, parentId: {} }, ["parentId"]), "parentId"],
    ["none", obj({ ownerId: {}, name: {} }), undefined],
    ["through allOf", { allOf: [obj({ thingId: {} })] }, "thingId"],
  ])("%s", (_name, schema, idField) => {
    expect(idFieldOf(spec({}, { Thing: schema }), "Thing")).toBe(idField);
  });
});

describe("paramConstraints", () => {
  it("keeps what the engine reads besides validation: the type and the default", () => {
    const doc = spec({}, { Limit: { type: "integer", minimum: 1, maximum: 100, default: 10, description: "Page size.", example: 5 } });
    expect(paramConstraints(doc, { schema: ref("Limit") })).toEqual({ type: "integer", default: 10 });
    expect(paramConstraints(doc, { schema: { type: "array", items: { type: "string" }, maxItems: 3 } })).toEqual({ type: "array" });
  });
});

describe("resourceSchemaOf", () => {
  const list: ListDeclaration = { itemSchema: "Widget", pagination: { kind: "none", items: "data" } };
  it.each([
    ["a named success schema", { responses: { "201": json(ref("Widget")) } }, null, "Widget"],
    ["the first success response with JSON", { responses: { "204": {}, "200": json(ref("Widget")) } }, null, "Widget"],
    ["an inline schema names none", { responses: { "200": json({ type: "object" }) } }, null, undefined],
    ["a list operation is not a resource", { responses: { "200": json(ref("WidgetPage")) } }, list, undefined],
  ])("%s", (_name, raw, declared, expected) => {
    expect(resourceSchemaOf(spec({}), raw, declared)).toBe(expected);
  });
});

describe("echoFields", () => {
  it("copies request fields the resource also has, with the resource's schema stripped of documentation", () => {
    const doc = spec({}, { Request: obj({ name: { type: "string" }, secret: { type: "string" } }) });
    expect(echoFields(doc, ref("Request"), "Widget")).toEqual({ name: { type: "string" } });
    expect(echoFields(doc, undefined, "Widget")).toEqual({});
  });
});

describe("ExampleValues", () => {
  it("stores each distinct value once", () => {
    const values = new ExampleValues();
    expect([values.indexOf({ a: 1 }), values.indexOf({ b: 2 }), values.indexOf({ a: 1 })]).toEqual([0, 1, 0]);
    expect(values.values).toEqual([{ a: 1 }, { b: 2 }]);
  });
});

describe("mockData", () => {
  const widget = { id: "wid_1", name: "Left" };
  const notFound = { value: { code: "NOT_FOUND" } };
  const widgetSchema = {
    type: "object",
    required: ["id"],
    properties: { id: { type: "string", pattern: "^wid_[0-9]+$" }, name: { type: "string" } },
  };
  const doc = spec(
    {
      "/api/v2/agent/widgets": {
        post: {
          operationId: "createWidget",
          requestBody: json(obj({ name: { type: "string" } })),
          responses: {
            "201": json(ref("Widget"), { examples: { made: { value: widget } } }),
            "404": json({}, { examples: { NOT_FOUND: notFound } }),
          },
        },
        get: { operationId: "listWidgets", responses: { "200": json(ref("WidgetPage")) } },
      },
      "/api/v2/agent/widgets/{widgetId}": {
        get: {
          operationId: "getWidget",
          parameters: [{ name: "widgetId", in: "path", required: true, schema: { type: "string", example: "wid_9" } }],
          responses: {
            "200": json(ref("Widget"), { examples: { one: { value: widget } } }),
            "404": json({}, { examples: { NOT_FOUND: notFound } }),
          },
        },
      },
      "/api/admin/widgets": { get: { operationId: "adminListWidgets", responses: {} } },
      "/api/v2/agent/placeholder": { get: { operationId: "placeholder_later", responses: {} } },
    },
    { Widget: widgetSchema },
  );
  const lists = new Map<string, ListDeclaration>([["listWidgets", { itemSchema: "Widget", pagination: { kind: "none", items: "data" } }]]);
  const data = mockData(doc, specOperations(doc), lists);
  const byId = (id: string) => data.operations.find((o) => o.operationId === id);

  it("leaves out admin operations and placeholders", () => {
    expect(data.operations.map((o) => o.operationId)).toEqual(["listWidgets", "createWidget", "getWidget"]);
  });

  it("stores each example value once and refers to it by index, with error codes named", () => {
    expect(data.values).toEqual([widget, notFound.value]);
    expect(byId("createWidget")?.responses).toEqual([
      { status: 201, contentType: "application/json", headers: [], examples: [{ name: "made", value: 0 }] },
      { status: 404, contentType: "application/json", headers: [], examples: [{ name: "NOT_FOUND", code: "NOT_FOUND", value: 1 }] },
    ]);
  });

  it("models the resource: echoed fields, created by a POST on the collection answering 201, ids the spec shows", () => {
    expect(byId("createWidget")?.resource).toEqual({ schema: "Widget", echo: { name: { type: "string" } } });
    expect(data.schemas.Widget).toEqual({
      store: "Widget",
      idField: "id",
      properties: ["id", "name"],
      idPrefix: "wid_",
      exampleIds: ["wid_1", "wid_9"],
      creatable: true,
      listed: true,
      noun: "Widget",
    });
  });

  it("ties a path parameter to the resource GET on its path returns", () => {
    expect(byId("getWidget")?.params).toEqual([
      { name: "widgetId", in: "path", required: true, schema: { type: "string" }, resource: "Widget" },
    ]);
  });

  it("carries what each request is validated against, and the scopes and key material of the mock", () => {
    expect(byId("createWidget")?.request).toEqual({
      parameters: [],
      body: {
        required: false,
        contentTypes: ["application/json"],
        schema: { type: "object", properties: { name: { type: "string" } }, required: [] },
      },
    });
    expect(byId("getWidget")?.request).toEqual({
      parameters: [{ name: "widgetId", in: "path", required: true, schema: { type: "string" } }],
    });
    expect(byId("getWidget")?.scopes).toEqual([]);
    expect(data.requestSchemas).toEqual({});
    expect(data.countries).toContain("DE");
    expect(data.scopes).toEqual([]);
  });

  it("carries a list's declaration, not a guess from its response", () => {
    expect(byId("listWidgets")?.list).toEqual({ itemSchema: "Widget", pagination: { kind: "none", items: "data" } });
    expect(byId("listWidgets")?.resource).toBeUndefined();
    const undeclared = mockData(doc, specOperations(doc), new Map());
    expect(undeclared.operations.find((o) => o.operationId === "listWidgets")).toMatchObject({ resource: { schema: "WidgetPage" } });
    expect(undeclared.operations.find((o) => o.operationId === "listWidgets")?.list).toBeUndefined();
  });
});
