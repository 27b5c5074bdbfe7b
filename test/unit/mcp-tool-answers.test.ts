// Every generated MCP tool is one a client accepts (flat object input, no $ref, no top-level combinator, a name in the
// pattern, all four annotations), and the lists stay within their budgets (docs/agents.md "Sizes"), measured as the
// official server sends them.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { describe, expect, it } from "vitest";
import { mcpTools } from "../../sdk/src/generated/mcp-tools.ts";
import { createCoinplaneMcpServer } from "../../sdk/src/mcp/index.ts";
import { ALL_WRITE_SCOPES } from "../helpers/v2.ts";

const NAME = /^[a-z][a-z0-9_]{0,63}$/;
const BUDGET = { list: 60_000, dynamicList: 2_000, describe: 8_000 };

async function listed(options: { scopes?: string[]; environment?: "sandbox" | "production"; mode?: "tools" | "dynamic" }) {
  const server = createCoinplaneMcpServer({
    baseUrl: "http://127.0.0.1:9",
    apiKey: "cp_sandbox_unused",
    access: { environment: options.environment ?? "sandbox", scopes: options.scopes ?? ALL_WRITE_SCOPES },
    mode: options.mode,
  });
  const client = new Client({ name: "size-check", version: "1.0.0" });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(a), client.connect(b)]);
  return { client, list: await client.listTools() };
}

const hasRef = (value: unknown): boolean =>
  Array.isArray(value)
    ? value.some(hasRef)
    : !!value && typeof value === "object" && Object.entries(value).some(([k, v]) => k === "$ref" || hasRef(v));

describe("generated tools", () => {
  it.each(mcpTools.map((t) => [t.name, t] as const))("%s is a tool every client accepts", (_name, tool) => {
    expect(tool.name).toMatch(NAME);
    for (const schema of [tool.inputSchema, tool.fullInputSchema, tool.outputSchema, tool.fullOutputSchema]) {
      if (!schema) continue;
      expect(schema.type).toBe("object");
      expect(hasRef(schema)).toBe(false);
      for (const combinator of ["anyOf", "oneOf", "allOf", "not"]) expect(schema).not.toHaveProperty(combinator);
    }
    expect(Object.keys(tool.annotations).sort()).toEqual(["destructiveHint", "idempotentHint", "openWorldHint", "readOnlyHint"]);
    if (tool.idempotency === "required") expect(tool.inputSchema.required).toContain("idempotency_key");
    expect(tool.description.length).toBeLessThanOrEqual(500);
  });

  it("covers every API-key operation but never a people-only, session-only or admin one", () => {
    const ops = new Set(mcpTools.map((t) => t.operationId));
    for (const never of [
      "approveApprovalRequest",
      "rejectApprovalRequest",
      "createApiKey",
      "adminCreateApiKey",
      "createSession",
      "dispatchCorridorWorkflows",
    ]) {
      expect(ops.has(never)).toBe(false);
    }
    expect(mcpTools.filter((t) => t.operationId === "createCustodyWallet").map((t) => t.name)).toEqual([
      "request_custody_wallet",
      "activate_custody_wallet",
    ]);
    expect(mcpTools.filter((t) => t.operationId === "createCustodyTransfer").map((t) => t.name)).toEqual([
      "request_custody_transfer",
      "submit_custody_transfer",
      "advance_custody_transfer",
    ]);
  });

  it("hints follow the contract: POST reads are read-only, cancel/freeze/burn destructive, keyed writes idempotent", () => {
    const tool = (name: string) => mcpTools.find((t) => t.name === name)?.annotations;
    expect(tool("get_bank_transfer_status")).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(tool("cancel_bank_transfer")).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
      openWorldHint: true,
    });
    expect(tool("request_burn")).toMatchObject({ destructiveHint: true });
    expect(tool("create_wallet")).toMatchObject({ readOnlyHint: false, destructiveHint: false });
  });
});

describe("sizes (docs/agents.md)", () => {
  it("the official client accepts the lists, each within its budget", async () => {
    const all = await listed({});
    const listChars = JSON.stringify(all.list).length;
    const dynamic = await listed({ mode: "dynamic" });
    const dynamicChars = JSON.stringify(dynamic.list).length;
    let largestDescribe = 0;
    for (const tool of all.list.tools) {
      const answer = await dynamic.client.callTool({ name: "describe_operation", arguments: { name: tool.name } });
      // What the model reads: the answer's text (the JSON of the operation's description).
      const text = (answer.content as Array<{ text: string }>).map((c) => c.text).join("");
      largestDescribe = Math.max(largestDescribe, text.length);
    }
    console.log(
      `MCP sizes: ${all.list.tools.length} tools, list ${listChars} chars; dynamic list ${dynamicChars}; largest describe ${largestDescribe}`,
    );
    expect(listChars).toBeLessThanOrEqual(BUDGET.list);
    expect(dynamicChars).toBeLessThanOrEqual(BUDGET.dynamicList);
    expect(largestDescribe).toBeLessThanOrEqual(BUDGET.describe);
  });

  it("a production key never sees a sandbox-only tool", async () => {
    const names = (await listed({ environment: "production" })).list.tools.map((t) => t.name);
    expect(names).not.toContain("simulate_card_authorization");
    expect(names).toContain("create_payment");
  });
});
