#!/usr/bin/env node
// `coinplane-mcp`: the Coinplane tools over stdio for desktop clients (Claude Desktop, Cursor, VS Code), against the
// Coinplane at COINPLANE_URL with COINPLANE_API_KEY. Optional: COINPLANE_SCOPES (comma-separated: list only what the key
// may call), COINPLANE_TOOLSETS, COINPLANE_MCP_MODE=dynamic. Nothing but MCP is written to stdout.
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { createCoinplaneMcpServer } from "./server.ts";
import { environmentOfKey } from "./tool-access.ts";

const list = (value: string | undefined) =>
  value
    ?.split(",")
    .map((s) => s.trim())
    .filter(Boolean);

const apiKey = process.env.COINPLANE_API_KEY ?? "";
const baseUrl = process.env.COINPLANE_URL ?? "http://localhost:8080";
const environment = environmentOfKey(apiKey);
if (!environment) {
  process.stderr.write("coinplane-mcp: set COINPLANE_API_KEY to a Coinplane API key (cp_sandbox_… or cp_production_…)\n");
  process.exit(2);
}
const server = createCoinplaneMcpServer({
  baseUrl,
  apiKey,
  access: { environment, scopes: list(process.env.COINPLANE_SCOPES) },
  toolsets: list(process.env.COINPLANE_TOOLSETS),
  mode: process.env.COINPLANE_MCP_MODE === "dynamic" ? "dynamic" : "tools",
});
await server.connect(new StdioServerTransport());
