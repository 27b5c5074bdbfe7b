// `@coinplane/sdk/mcp`: the Coinplane MCP server (tools generated from the contract) for any MCP transport.
export { mcpTools } from "../generated/mcp-tools.ts";
export { consoleApprovalUrl } from "./approvals.ts";
export type { ApiConnection } from "./call-operation.ts";
export { type CoinplaneMcpOptions, createCoinplaneMcpServer, listedTool, type ToolOutcome } from "./server.ts";
export { environmentOfKey, type KeyAccess, visibleTools } from "./tool-access.ts";
export type { McpToolAnnotations, McpToolDefinition } from "./tool-definition.ts";
