import { describe, expect, it } from "vitest";
import { examplesOf, normalize, objectProperties, schemaName, specOperations, successSchema } from "../../../scripts/sdk-generator/spec.ts";
import { json, query, ref, spec } from "./fixtures.ts";

describe("schemaName", () => {
  it.each([
    [ref("Widget"), "Widget"],
    [{ $ref: "#/components/parameters/Limit" }, undefined],
    [{ type: "string" }, undefined],
    [undefined, undefined],
  ])("%j → %s", (schema, name) => {
    expect(schemaName(schema)).toBe(name);
  });
});

describe("objectProperties", () => {
  it("merges allOf/oneOf/anyOf properties; only own and allOf requirements are required", () => {
    const doc = spec({}, { Base: { type: "object", required: ["id"], properties: { id: { type: "string" } } } });
    const schema = {
      allOf: [ref("Base")],
      oneOf: [{ type: "object", required: ["a"], properties: { a: {} } }],
      anyOf: [{ type: "object", properties: { b: {} } }],
      properties: { own: {} },
      required: ["own"],
    };
    const { properties, required } = objectProperties(doc, schema);
    expect(Object.keys(properties).sort()).toEqual(["a", "b", "id", "own"]);
    expect(required.sort()).toEqual(["id", "own"]);
  });
});

describe("normalize", () => {
  it("resolves $refs and strips documentation-only keywords at every depth", () => {
    const doc = spec({}, { Name: { type: "string", description: "A name.", example: "x", maxLength: 3 } });
    expect(normalize(doc, { type: "object", title: "T", properties: { name: ref("Name") } })).toEqual({
      type: "object",
      properties: { name: { type: "string", maxLength: 3 } },
    });
  });
});

describe("examplesOf", () => {
  it.each([
    ["named examples win over `example`", { examples: { a: { value: 1 } }, example: 2 }, [{ name: "a", value: 1 }]],
    ["`example` alone", { example: 2 }, [{ name: "example", value: 2 }]],
    ["examples without a value are skipped", { examples: { ext: { externalValue: "x.json" } } }, []],
  ])("%s", (_name, media, expected) => {
    expect(examplesOf(spec({}), media)).toEqual(expected);
  });
});

describe("successSchema and specOperations", () => {
  it("reads the first JSON success response and merges path-level parameters before the operation's", () => {
    const doc = spec({
      "/api/v1/widgets": {
        parameters: [query("a")],
        get: {
          operationId: "listWidgets",
          parameters: [query("b")],
          responses: { "204": {}, "200": json(ref("WidgetPage")), "404": json({}) },
        },
      },
    });
    const [op] = specOperations(doc);
    expect(op?.parameters.map((p) => p.name)).toEqual(["a", "b"]);
    expect(successSchema(doc, op!.raw)).toEqual(ref("WidgetPage"));
  });
});
