import { describe, expect, it } from "vitest";
import { jsDoc, namespacesModule, schemasModule } from "../../../scripts/sdk-generator/namespaces.ts";
import { specOperations } from "../../../scripts/sdk-generator/spec.ts";
import { json, query, ref, spec } from "./fixtures.ts";

const doc = spec(
  {
    "/api/v2/agent/widgets": {
      get: {
        operationId: "listWidgets",
        summary: "List widgets",
        tags: ["Widgets"],
        security: [{ apiKey: ["widgets:read"] }],
        parameters: [query("limit"), query("offset")],
        responses: { "200": json(ref("WidgetPage")) },
      },
      post: {
        operationId: "createWidget",
        summary: "Create a widget",
        description: "Creates a widget.\nA comment end */ in the text stays inside the block.",
        tags: ["Widgets"],
        requestBody: { required: true, ...json(ref("Widget")) },
        responses: { "201": json(ref("Widget")) },
      },
    },
    "/api/v2/agent/widgets/{widget-id}": {
      parameters: [{ name: "widget-id", in: "path", required: true, description: "The widget's id.", schema: { type: "string" } }],
      get: {
        operationId: "getWidget",
        summary: "Retrieve a widget",
        deprecated: true,
        "x-deprecated-at": "2026-06-01",
        "x-sunset": "2026-12-01",
        parameters: [{ ...query("expand"), required: true }],
        responses: { "200": json(ref("Widget")) },
      },
    },
  },
  { "Not-An-Identifier": { type: "string" }, Undocumented: { type: "string" } },
);
(doc as Record<string, unknown>).tags = [{ name: "Widgets", description: "Widgets of the fixture." }];
const ops = specOperations(doc);
const methods = {
  createWidget: ["widgets", "create"],
  listWidgets: ["widgets", "list"],
  getWidget: ["gadgets", "retrieve"],
} as const;

describe("jsDoc", () => {
  it("renders paragraphs as a comment block that text cannot close early", () => {
    expect(jsDoc(["Title", "", "Line one\nline */ two"], "  ")).toBe("  /**\n   * Title\n   *\n   * Line one\n   * line *\\/ two\n   */\n");
  });
});

describe("namespacesModule", () => {
  const out = namespacesModule(doc, ops, methods, "/* NOTICE */\n");

  it("documents each method with the operation's summary, description, route, scopes and parameters", () => {
    expect(out).toContain(
      [
        "  /**",
        "   * Create a widget",
        "   *",
        "   * Creates a widget.",
        "   * A comment end *\\/ in the text stays inside the block.",
        "   *",
        "   * `POST /api/v2/agent/widgets` (operationId `createWidget`).",
        "   *",
        "   * @param body - The JSON request body.",
      ].join("\n"),
    );
    expect(out).toContain('  create(body: RequestBody<"createWidget">, options?: RequestOptions): MethodResult<"createWidget">;\n');
    expect(out).toContain("   * Requires the scope `widgets:read`.\n");
    expect(out).toContain('  list(query?: QueryParams<"listWidgets">, options?: RequestOptions): MethodResult<"listWidgets">;\n');
  });

  it("names path parameters after the path (as identifiers), requires a required query, marks deprecation", () => {
    expect(out).toContain("   * @param widget_id - The widget's id.\n");
    expect(out).toContain("   * @deprecated The spec marks this operation deprecated.\n");
    expect(out).toContain(
      '  retrieve(widget_id: string, query: QueryParams<"getWidget">, options?: RequestOptions): MethodResult<"getWidget">;\n',
    );
  });

  it("groups methods into one interface per namespace, documented by their tags, under the notice", () => {
    expect(
      out.startsWith('/* NOTICE */\nimport type { MethodResult, QueryParams, RequestBody, RequestOptions } from "../types.ts";\n'),
    ).toBe(true);
    expect(out).toContain("/**\n * `coinplane.widgets`: Widgets of the fixture.\n */\nexport interface WidgetsNamespace {\n");
    expect(out).toContain("/**\n * `coinplane.gadgets`\n */\nexport interface GadgetsNamespace {\n");
    expect(out).toMatch(
      /export interface Namespaces \{\n[\s\S]*readonly widgets: WidgetsNamespace;\n[\s\S]*readonly gadgets: GadgetsNamespace;\n\}/,
    );
  });

  it("refuses an operation map entry that is not an operation of the spec", () => {
    expect(() => namespacesModule(doc, ops, { deleteWidget: ["widgets", "delete"] }, "")).toThrow(/deleteWidget is not an operation/);
  });
});

describe("schemasModule", () => {
  const out = schemasModule(doc, ops, methods, "/* NOTICE */\n");

  it("aliases each schema, documented with the methods that take or return it", () => {
    expect(out).toContain(
      '/**\n * Request body of `coinplane.widgets.create`.\n * Returned by `coinplane.widgets.create`, `coinplane.gadgets.retrieve`.\n */\nexport type Widget = components["schemas"]["Widget"];\n',
    );
    expect(out).toContain(
      '/**\n * Returned by `coinplane.widgets.list`.\n */\nexport type WidgetPage = components["schemas"]["WidgetPage"];\n',
    );
    expect(out).toContain('\nexport type Undocumented = components["schemas"]["Undocumented"];\n');
    expect(out).not.toContain("Not-An-Identifier");
  });
});
