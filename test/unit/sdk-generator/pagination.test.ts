import { describe, expect, it } from "vitest";
import { generateSdkArtifacts } from "../../../scripts/sdk-generator/index.ts";
import { clientPagination, PaginationError, readPagination } from "../../../scripts/sdk-generator/pagination.ts";
import { json, listWidgets, only, query, ref, spec } from "./fixtures.ts";

const read = (pagination: unknown, parameters?: Parameters<typeof listWidgets>[1]) => {
  const doc = listWidgets(pagination, parameters);
  return readPagination(doc, only(doc));
};

describe("readPagination: well-formed declarations", () => {
  it.each([
    [
      "offset with every key",
      { style: "offset", items: "data", limitParam: "limit", offsetParam: "offset", total: "count" },
      { kind: "offset", items: "data", offsetParam: "offset", limitParam: "limit", total: "count" },
    ],
    [
      "offset, minimal",
      { style: "offset", items: "data", offsetParam: "offset" },
      { kind: "offset", items: "data", offsetParam: "offset" },
    ],
    [
      "cursor with every key (cursorParam becomes the table's `param`)",
      { style: "cursor", items: "data", limitParam: "limit", cursorParam: "after", nextCursor: "nextCursor", hasMore: "hasMore" },
      { kind: "cursor", param: "after", items: "data", nextCursor: "nextCursor", limitParam: "limit", hasMore: "hasMore" },
    ],
    [
      "cursor, minimal",
      { style: "cursor", items: "data", cursorParam: "after", nextCursor: "nextCursor" },
      { kind: "cursor", param: "after", items: "data", nextCursor: "nextCursor" },
    ],
    ["none (whole list)", { style: "none", items: "data", total: "count" }, { kind: "none", items: "data", total: "count" }],
  ])("%s", (_name, declared, pagination) => {
    expect(read(declared)).toEqual({ itemSchema: "Widget", pagination });
  });

  it("is null when the operation declares no x-pagination, whatever its parameters and response look like", () => {
    expect(read(undefined)).toBeNull();
  });

  it("reads an inline item schema as an unnamed item", () => {
    const doc = spec({
      "/api/v2/agent/things": {
        get: {
          operationId: "listThings",
          "x-pagination": { style: "none", items: "things" },
          responses: { "200": json({ type: "object", properties: { things: { type: "array", items: { type: "string" } } } }) },
        },
      },
    });
    expect(readPagination(doc, only(doc))).toEqual({ itemSchema: null, pagination: { kind: "none", items: "things" } });
  });

  it("finds fields declared in an allOf branch of the response", () => {
    const doc = spec({
      "/api/v2/agent/things": {
        get: {
          operationId: "listThings",
          parameters: [query("after", {})],
          "x-pagination": { style: "cursor", items: "data", cursorParam: "after", nextCursor: "nextCursor" },
          responses: { "200": json({ allOf: [ref("WidgetPage"), { type: "object", properties: { extra: { type: "string" } } }] }) },
        },
      },
    });
    expect(readPagination(doc, only(doc))?.pagination).toMatchObject({ kind: "cursor", param: "after" });
  });
});

describe("readPagination: malformed declarations fail with the operation and the problem", () => {
  it.each([
    ["not an object", "offset", /must be an object/],
    ["an array", ["offset"], /must be an object/],
    ["no style", { items: "data" }, /style must be one of offset, cursor, none \(got undefined\)/],
    ["an unknown style", { style: "page", items: "data" }, /style must be one of offset, cursor, none \(got "page"\)/],
    ["offset without offsetParam", { style: "offset", items: "data" }, /style offset requires "offsetParam"/],
    ["cursor without nextCursor", { style: "cursor", items: "data", cursorParam: "after" }, /style cursor requires "nextCursor"/],
    ["no items", { style: "none" }, /style none requires "items"/],
    ["a key of another style", { style: "none", items: "data", cursorParam: "after" }, /"cursorParam" is not a key of style none/],
    ["a misspelt key", { style: "offset", items: "data", offsetParam: "offset", totl: "count" }, /"totl" is not a key of style offset/],
    ["a non-string value", { style: "offset", items: "data", offsetParam: 5 }, /"offsetParam" must be a non-empty string/],
    ["an undeclared parameter", { style: "offset", items: "data", offsetParam: "skip" }, /offsetParam "skip" is not a query parameter/],
    ["a missing response field", { style: "none", items: "data", total: "size" }, /total "size" is not a property of the success response/],
    ["items that are not an array", { style: "none", items: "label" }, /items "label" is not an array property/],
  ])("%s", (_name, declared, message) => {
    expect(() => read(declared)).toThrow(PaginationError);
    expect(() => read(declared)).toThrow(/^x-pagination of listWidgets: /);
    expect(() => read(declared)).toThrow(message);
  });

  it("rejects a parameter that exists only outside the query (a path or header parameter)", () => {
    const declared = { style: "cursor", items: "data", cursorParam: "after", nextCursor: "nextCursor" };
    expect(() => read(declared, [{ name: "after", in: "header", schema: {} }])).toThrow(/cursorParam "after" is not a query parameter/);
  });

  it("rejects a list without a JSON success response", () => {
    const doc = spec({
      "/api/v2/agent/things": {
        get: { operationId: "listThings", "x-pagination": { style: "none", items: "data" }, responses: { "204": {} } },
      },
    });
    expect(() => readPagination(doc, only(doc))).toThrow(/listThings: the operation has no JSON success response/);
  });

  it("fails the whole generation", () => {
    expect(() => generateSdkArtifacts(listWidgets({ style: "offset", items: "data" }), "n", {})).toThrow(/x-pagination of listWidgets/);
  });
});

describe("clientPagination", () => {
  it.each([
    ["no list", null, null],
    ["a whole list is an ordinary call", { itemSchema: null, pagination: { kind: "none" as const, items: "data" } }, null],
    [
      "an offset list pages",
      { itemSchema: "Widget", pagination: { kind: "offset" as const, items: "data", offsetParam: "offset" } },
      { kind: "offset", items: "data", offsetParam: "offset" },
    ],
  ])("%s", (_name, list, expected) => {
    expect(clientPagination(list)).toEqual(expected);
  });
});
