import { describe, expect, it } from "vitest";
import { operationEntry, operationTable } from "../../../scripts/sdk-generator/operation-table.ts";
import type { ListDeclaration } from "../../../scripts/sdk-generator/pagination.ts";
import { specOperations } from "../../../scripts/sdk-generator/spec.ts";
import { json, only, query, ref, spec } from "./fixtures.ts";

const idempotencyKey = { name: "Idempotency-Key", in: "header", required: true, schema: { type: "string" } };

describe("operationEntry", () => {
  it.each([
    ["no request body", {}, "none"],
    ["an optional request body", { requestBody: json({ type: "object" }) }, "optional"],
    ["a required request body", { requestBody: { required: true, ...json({ type: "object" }) } }, "required"],
    ["a required body behind a $ref", { requestBody: { $ref: "#/components/requestBodies/Make" } }, "required"],
  ])("%s → body %s", (_name, extra, body) => {
    const doc = spec({ "/api/v2/agent/widgets": { post: { operationId: "makeWidget", responses: {}, ...extra } } });
    doc.components = { ...doc.components, requestBodies: { Make: { required: true, ...json({ type: "object" }) } } };
    expect(operationEntry(doc, only(doc), null).body).toBe(body);
  });

  it("lists query parameters (path-level first, $refs resolved) and nothing else", () => {
    const doc = spec({
      "/api/v2/agent/widgets/{widgetId}": {
        parameters: [{ name: "widgetId", in: "path", required: true, schema: { type: "string" } }, query("expand", {})],
        get: { operationId: "getWidget", parameters: [{ $ref: "#/components/parameters/Limit" }, idempotencyKey], responses: {} },
      },
    });
    doc.components = { ...doc.components, parameters: { Limit: query("limit") } };
    expect(operationEntry(doc, only(doc), null)).toEqual({
      method: "GET",
      path: "/api/v2/agent/widgets/{widgetId}",
      surface: "v2",
      security: "apiKey",
      idempotency: "required",
      body: "none",
      query: ["expand", "limit"],
      pagination: null,
    });
  });

  it.each<[string, ListDeclaration | null, unknown]>([
    ["no declaration", null, null],
    ["a whole list", { itemSchema: "Widget", pagination: { kind: "none", items: "data" } }, null],
    [
      "a cursor list",
      { itemSchema: "Widget", pagination: { kind: "cursor", param: "after", items: "data", nextCursor: "next" } },
      { kind: "cursor", param: "after", items: "data", nextCursor: "next" },
    ],
  ])("pagination for %s", (_name, list, pagination) => {
    const doc = spec({ "/api/v1/widgets": { get: { operationId: "listWidgets", responses: { "200": json(ref("WidgetPage")) } } } });
    expect(operationEntry(doc, only(doc), list).pagination).toEqual(pagination);
  });
});

describe("operationTable", () => {
  it("has one entry per operation, keyed by operationId, in spec order", () => {
    const doc = spec({
      "/api/v1/widgets": { post: { operationId: "createWidget", responses: {} }, get: { operationId: "listWidgets", responses: {} } },
      "/api/metric/{metricId}": { get: { operationId: "getMetric", responses: {} } },
    });
    const table = operationTable(doc, specOperations(doc), new Map());
    expect(Object.keys(table)).toEqual(["listWidgets", "createWidget", "getMetric"]);
    expect(table.getMetric).toMatchObject({ surface: "metric", method: "GET" });
  });
});
