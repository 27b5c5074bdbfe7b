// The Coinplane MCP server: the generated tools (sdk/src/generated/mcp-tools.ts) on the official SDK's low-level
// `Server` (the tools' JSON schemas go out as generated), calling the API with the caller's key. The service mounts it
// at /mcp (server/http/mcp-endpoint.ts); `coinplane-mcp` serves it over stdio. docs/agents.md describes both.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, type CallToolResult, ListToolsRequestSchema, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { mcpTools } from "../generated/mcp-tools.ts";
import { approvalOf, waitWhile } from "./approvals.ts";
import { type ApiConnection, callOperation, IDEMPOTENCY_ARGUMENT, WAIT_ARGUMENT } from "./call-operation.ts";
import { describeOperation, dynamicTools, findOperations, flatArguments } from "./dynamic-tools.ts";
import { type KeyAccess, visibleTools } from "./tool-access.ts";
import type { McpToolDefinition } from "./tool-definition.ts";
import { errorResult, successResult, toolError } from "./tool-results.ts";

export type ToolOutcome = "ok" | "error" | "refused" | "unknown_tool";

export interface CoinplaneMcpOptions extends ApiConnection {
  access: KeyAccess;
  /** Toolset slugs (contract tags) to list; default all. */
  toolsets?: readonly string[];
  mode?: "tools" | "dynamic";
  /** Where the console is served (approval links); default `baseUrl`. */
  consoleUrl?: string;
  /** A cap on `wait_seconds` below the tool's own (≤ 60 s): the service keeps a wait within its request deadline. */
  maxWaitSeconds?: number;
  /** Called once per tool call (the service's logs and metrics). */
  onToolCall?: (event: { tool: string; outcome: ToolOutcome; status?: number; durationMs: number }) => void;
  version?: string;
}

const INSTRUCTIONS =
  "Coinplane: stablecoin payments, custody, cards and treasury. Writes take an idempotency_key: reuse it when you retry. " +
  "Money that needs a person (custody wallets and transfers, mint, burn) answers an approval with a console link: a member " +
  "approves it there; then call the follow-up tool. Errors carry the API's problem whole.";

export function listedTool(t: McpToolDefinition): Tool {
  return {
    name: t.name,
    ...(t.title ? { title: t.title } : {}),
    description: t.description,
    inputSchema: t.inputSchema as Tool["inputSchema"],
    ...(t.outputSchema ? { outputSchema: t.outputSchema as Tool["outputSchema"] } : {}),
    annotations: t.annotations,
  };
}

export function createCoinplaneMcpServer(options: CoinplaneMcpOptions): Server {
  const tools = visibleTools(mcpTools, options.access, options.toolsets);
  const byName = new Map(tools.map((t) => [t.name, t]));
  const getApproval = mcpTools.find((t) => t.operationId === "getApprovalRequest");
  const dynamic = options.mode === "dynamic";
  const server = new Server(
    { name: "coinplane", version: options.version ?? "0.1.0" },
    { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS },
  );

  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: dynamic ? dynamicTools : tools.map(listedTool) }));

  async function run(tool: McpToolDefinition, args: Record<string, unknown>): Promise<{ result: CallToolResult; status: number }> {
    const read = () => callOperation(options, tool, args);
    const wait = Math.min(Number(args[WAIT_ARGUMENT] ?? 0) || 0, options.maxWaitSeconds ?? Number.POSITIVE_INFINITY);
    const answer = tool.wait && wait > 0 ? await waitWhile(read, tool.wait, wait) : await read();
    if (answer.status >= 400)
      return { result: errorResult(answer, args[IDEMPOTENCY_ARGUMENT] as string | undefined), status: answer.status };
    if (tool.createsApproval && answer.body && typeof answer.body === "object") {
      const body = answer.body as Record<string, unknown>;
      const approval = await approvalOf(options, getApproval, body, options.consoleUrl ?? options.baseUrl, options.access.environment);
      if (approval) answer.body = { ...body, approval };
    }
    return { result: successResult(tool.name, answer, tool.outputSchema !== null), status: answer.status };
  }

  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const started = performance.now();
    const args = (request.params.arguments ?? {}) as Record<string, unknown>;
    let name = request.params.name;
    const report = (outcome: ToolOutcome, status?: number) =>
      options.onToolCall?.({ tool: name, outcome, status, durationMs: performance.now() - started });
    if (dynamic && name === "find_operations") {
      report("ok");
      const found = findOperations(tools, args.query, args.toolset);
      return { content: [{ type: "text", text: JSON.stringify(found) }] };
    }
    if (dynamic && name === "describe_operation") {
      const tool = byName.get(String(args.name));
      if (!tool) {
        report("unknown_tool");
        return toolError(`No operation named ${String(args.name)} for this key (find_operations lists them).`);
      }
      report("ok");
      return { content: [{ type: "text", text: JSON.stringify(describeOperation(tool)) }] };
    }
    let callArgs = args;
    if (dynamic) {
      if (name !== "invoke_operation") {
        report("unknown_tool");
        return toolError(`Unknown tool ${name}: use find_operations, describe_operation and invoke_operation.`);
      }
      name = String(args.name);
      callArgs = flatArguments(args);
    }
    const tool = byName.get(name);
    if (!tool) {
      report("unknown_tool");
      return toolError(`No tool named ${name} for this key (its scopes and environment decide the list).`);
    }
    try {
      const { result, status } = await run(tool, callArgs);
      report(result.isError ? "refused" : "ok", status);
      return result;
    } catch (error) {
      report("error");
      return toolError(
        `The Coinplane API could not be reached (${(error as Error).message}). Retry with the same idempotency_key: nothing is executed twice.`,
      );
    }
  });
  return server;
}
