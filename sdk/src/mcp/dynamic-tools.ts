// Dynamic mode (`?mode=dynamic`, or `COINPLANE_MCP_MODE=dynamic`): three tools instead of the whole list — find
// operations, describe one (its full input schema), invoke one — for clients that keep their context small.
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import type { McpToolDefinition } from "./tool-definition.ts";

const ANNOTATIONS_READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

export const dynamicTools: Tool[] = [
  {
    name: "find_operations",
    description:
      'Find Coinplane operations this key may call, by words (e.g. "bank transfer") and/or toolset. Answers names and summaries.',
    inputSchema: {
      type: "object",
      properties: { query: { type: "string" }, toolset: { type: "string", description: "e.g. payments, custody, cards" } },
    },
    annotations: ANNOTATIONS_READ,
  },
  {
    name: "describe_operation",
    description: "Describe one operation: its arguments (full input schema), answer, scope and hints.",
    inputSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
    annotations: ANNOTATIONS_READ,
  },
  {
    name: "invoke_operation",
    description:
      "Call an operation by name. path, query and body hold its arguments as describe_operation lists them; idempotency_key: new per call, the same on a retry.",
    inputSchema: {
      type: "object",
      properties: {
        name: { type: "string" },
        path: { type: "object" },
        query: { type: "object" },
        body: { type: "object" },
        idempotency_key: { type: "string" },
        wait_seconds: { type: "integer", minimum: 0, maximum: 60 },
      },
      required: ["name"],
    },
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  },
];

export function findOperations(tools: readonly McpToolDefinition[], query: unknown, toolset: unknown) {
  const words =
    typeof query === "string"
      ? query
          .toLowerCase()
          .split(/[^a-z0-9]+/)
          .filter(Boolean)
      : [];
  const matches = tools
    .filter((t) => typeof toolset !== "string" || toolset === "" || t.toolset === toolset)
    .map((t) => {
      const text = `${t.name} ${t.description} ${t.toolset}`.toLowerCase().replaceAll("_", " ");
      return { t, score: words.filter((w) => text.includes(w)).length };
    })
    .filter((m) => words.length === 0 || m.score > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, 25);
  return {
    operations: matches.map(({ t }) => ({
      name: t.name,
      summary: t.description.split(". ")[0],
      toolset: t.toolset,
      readOnly: t.annotations.readOnlyHint,
    })),
    toolsets: [...new Set(tools.map((t) => t.toolset))],
  };
}

export function describeOperation(tool: McpToolDefinition) {
  return {
    name: tool.name,
    description: tool.description,
    toolset: tool.toolset,
    scopes: tool.scopes,
    method: tool.method.toUpperCase(),
    path: tool.path,
    arguments: { path: tool.pathParams, query: tool.queryParams, body: tool.bodyParams ?? [] },
    idempotencyKey: tool.idempotency,
    inputSchema: tool.fullInputSchema ?? tool.inputSchema,
    outputSchema: tool.fullOutputSchema,
    annotations: tool.annotations,
  };
}

/** invoke_operation's grouped arguments as the tool's flat ones. */
export function flatArguments(args: Record<string, unknown>): Record<string, unknown> {
  const pick = (k: string) => (args[k] && typeof args[k] === "object" ? (args[k] as Record<string, unknown>) : {});
  const flat: Record<string, unknown> = { ...pick("body"), ...pick("query"), ...pick("path") };
  if (args.idempotency_key !== undefined) flat.idempotency_key = args.idempotency_key;
  if (args.wait_seconds !== undefined) flat.wait_seconds = args.wait_seconds;
  return flat;
}
