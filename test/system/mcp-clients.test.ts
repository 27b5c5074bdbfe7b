// Clients other than our tests' own: the MCP Inspector's CLI mode lists and calls a tool on /mcp; the `coinplane-mcp`
// stdio entry point serves the same tools to the official client; the protocol scenarios of
// @modelcontextprotocol/conformance that apply to a tools-only server pass (docs/agents.md lists the others and why).
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMcpAuthProxy } from "../helpers/mcp-auth-proxy.ts";
import { ROOT } from "../helpers/server-process.ts";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";
import { ALL_WRITE_SCOPES } from "../helpers/v2.ts";

const run = promisify(execFile);
const bin = (name: string) => path.join(ROOT, "node_modules", ".bin", name);
/** The scenarios of `conformance list --server` a stateless, tools-only server with no test tools of its own can pass. */
const CONFORMANCE_SCENARIOS = ["server-initialize", "ping", "tools-list", "dns-rebinding-protection"];

let server: TestServer;
/** The Inspector keeps a catalog of servers: a scratch one, not the user's ~/.mcp-inspector. */
const scratch = mkdtempSync(path.join(tmpdir(), "coinplane-mcp-inspector-"));
let key: string;

beforeAll(async () => {
  server = await startTestServer();
  key = (await server.createKey({ organizationId: "org_mcp_clients", scopes: ALL_WRITE_SCOPES, actor: "agent" })).key;
});
afterAll(async () => {
  await server?.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe("MCP Inspector CLI", () => {
  const inspector = (...args: string[]) =>
    run(bin("mcp-inspector"), ["--cli", `${server.url}/mcp`, "--transport", "http", "--header", `Authorization: Bearer ${key}`, ...args], {
      timeout: 90_000,
      env: { ...process.env, HOME: scratch, MCP_CATALOG_PATH: path.join(scratch, "catalog.json") },
    });

  it("lists the tools and calls one", async () => {
    const listed = await inspector("--method", "tools/list");
    const names = (JSON.parse(listed.stdout) as { tools: Array<{ name: string }> }).tools.map((t) => t.name);
    expect(names).toContain("create_wallet");
    const called = await inspector("--method", "tools/call", "--tool-name", "list_wallets", "--tool-arg", "limit=2");
    const result = JSON.parse(called.stdout) as { isError?: boolean; structuredContent?: { data: unknown[] } };
    expect(result.isError ?? false).toBe(false);
    expect(Array.isArray(result.structuredContent?.data)).toBe(true);
  });
});

describe("coinplane-mcp (stdio)", () => {
  it("serves the key's tools against COINPLANE_URL", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ["--import", "tsx", path.join(ROOT, "sdk/src/mcp/stdio.ts")],
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? "", COINPLANE_API_KEY: key, COINPLANE_URL: server.url, COINPLANE_TOOLSETS: "wallets" },
      stderr: "pipe",
    });
    const client = new Client({ name: "stdio-check", version: "1.0.0" });
    await client.connect(transport);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(["create_wallet", "get_wallet", "get_wallet_balance", "list_wallets"]);
    const result = await client.callTool({ name: "list_wallets", arguments: { limit: 1 } });
    expect(result.isError ?? false).toBe(false);
    await client.close();
  });
});

describe("@modelcontextprotocol/conformance", () => {
  it.each(CONFORMANCE_SCENARIOS)("%s passes", async (scenario) => {
    // The runner sends no Authorization header: a proxy adds the key, as a configured client would.
    const proxy = await startMcpAuthProxy(server.url, key);
    try {
      const { stdout } = await run(bin("conformance"), ["server", "--url", `${proxy.url}/mcp`, "--scenario", scenario], {
        timeout: 90_000,
      }).catch((error: { stdout?: string; stderr?: string; message: string }) => {
        throw new Error(`${scenario} failed:\n${error.stdout ?? ""}\n${error.stderr ?? error.message}`);
      });
      expect(stdout).not.toMatch(/\bFAIL(ED)?\b/);
    } finally {
      await proxy.close();
    }
  });
});
