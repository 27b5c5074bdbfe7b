import { describe, expect, it } from "vitest";
import { generateSdkArtifacts } from "../../../scripts/sdk-generator/index.ts";
import { listWidgets } from "./fixtures.ts";

describe("generateSdkArtifacts", () => {
  const { operationsTs, namespacesTs, schemasTs, mockDataTs } = generateSdkArtifacts(
    listWidgets({ style: "offset", items: "data", limitParam: "limit", offsetParam: "offset", total: "count" }),
    "NOTICE",
    { listWidgets: ["widgets", "list"] },
  );

  it("renders the operation table with the declared pagination and the error codes, under the notice", () => {
    expect(operationsTs.startsWith("/* NOTICE */\n")).toBe(true);
    expect(operationsTs).toContain(
      '"kind": "offset",\n      "items": "data",\n      "offsetParam": "offset",\n      "limitParam": "limit",\n      "total": "count"',
    );
    expect(operationsTs).toContain("export const errorCodes = [] as const;");
    expect(operationsTs).toContain("export type OperationId = keyof typeof operationTable;");
  });

  it("renders the documented method signatures of the operation map and the schema aliases, under the notice", () => {
    expect(namespacesTs.startsWith("/* NOTICE */\n")).toBe(true);
    expect(namespacesTs).toContain('  list(query?: QueryParams<"listWidgets">, options?: RequestOptions): MethodResult<"listWidgets">;');
    expect(schemasTs.startsWith("/* NOTICE */\n")).toBe(true);
    expect(schemasTs).toContain('export type WidgetPage = components["schemas"]["WidgetPage"];');
  });

  it("renders the mock data as one typed constant", () => {
    expect(mockDataTs).toMatch(/^\/\* NOTICE \*\/\nimport type \{ MockData \} from "..\/mock\/types.ts";\n/);
    const data = JSON.parse(mockDataTs.slice(mockDataTs.indexOf("= ") + 2, mockDataTs.lastIndexOf(";")));
    expect(data.operations[0].list).toEqual({
      itemSchema: "Widget",
      pagination: { kind: "offset", items: "data", offsetParam: "offset", limitParam: "limit", total: "count" },
    });
  });
});
