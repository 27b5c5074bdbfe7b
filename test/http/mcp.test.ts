// The MCP endpoint (/mcp) driven by the official MCP client over Streamable HTTP: the agents issue's script (wallet,
// payment and its retry, bank transfers, a custody wallet through a person's approval, a metric), the key deciding the
// list, a revoked key answered HTTP 401, a refusal kept whole, logs and metrics naming the tool.
import { randomUUID } from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deciderWithKey } from "../helpers/members.ts";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";
import { ALL_WRITE_SCOPES, connect } from "../helpers/v2.ts";

const ORG = "org_mcp";
const DE_ACCOUNT = {
  type: "iban",
  iban: "DE89370400440532013000",
  bic: "COBADEFFXXX",
  accountHolderName: "Acme Trading GmbH",
  country: "DE",
};
const FR_ACCOUNT = {
  type: "iban",
  iban: "FR1420041010050500013M02606",
  bic: "PSSTFRPPXXX",
  accountHolderName: "Dupont SARL",
  country: "FR",
};

let server: TestServer;
let allKey: string;

async function connectClient(key: string, query = ""): Promise<Client> {
  const client = new Client({ name: "coinplane-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp${query}`), {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
  });
  await client.connect(transport);
  return client;
}

const structured = (r: unknown) => (r as CallToolResult).structuredContent as Record<string, unknown>;
const text = (r: unknown) => ((r as CallToolResult).content[0] as { text: string }).text;

beforeAll(async () => {
  // A short request deadline: waiting for an approval over /mcp must end before it (10 s - 5 s margin).
  server = await startTestServer({ env: { REQUEST_TIMEOUT_MS: "10000" } });
  allKey = (await server.createKey({ organizationId: ORG, scopes: ALL_WRITE_SCOPES, actor: "agent" })).key;
  await connect(server, { organizationId: ORG, category: "custody" });
});
afterAll(() => server?.close());

describe("the agents' script over MCP", () => {
  it("creates a wallet, pays from it (a retry with the same idempotency key answers the same payment)", async () => {
    const client = await connectClient(allKey);
    const wallet = await client.callTool({
      name: "create_wallet",
      arguments: { chain: "base", label: "agent", idempotency_key: randomUUID() },
    });
    expect(wallet.isError, text(wallet)).toBeFalsy();
    expect(structured(wallet).id).toMatch(/^wal_/);
    const payment = {
      amount: "12.50",
      stablecoin: "USDC",
      chain: "base",
      toAddress: "0x52908400098527886E0F7030069857D2E4169EE7",
      metadata: null,
      idempotency_key: randomUUID(),
    };
    const first = await client.callTool({ name: "create_payment", arguments: payment });
    expect(first.isError, text(first)).toBeFalsy();
    const again = await client.callTool({ name: "create_payment", arguments: payment });
    expect(structured(again).id).toBe(structured(first).id);
    await client.close();
  });

  it("lists bank transfers and creates one", async () => {
    const client = await connectClient(allKey);
    const created = await client.callTool({
      name: "create_bank_transfer",
      arguments: {
        amount: "1250.00",
        currency: "EUR",
        source: DE_ACCOUNT,
        destination: FR_ACCOUNT,
        rail: "sepa",
        senderJurisdiction: "DE",
        receiverJurisdiction: "FR",
        idempotency_key: randomUUID(),
      },
    });
    expect(created.isError, text(created)).toBeFalsy();
    const list = await client.callTool({ name: "list_bank_transfers", arguments: { limit: 5 } });
    expect(list.isError, text(list)).toBeFalsy();
    const ids = (structured(list).data as Array<{ id: string }>).map((t) => t.id);
    expect(ids).toContain(structured(created).id);
    await client.close();
  });

  it("requests a custody wallet, answers the approval's console link, and activates it once a member approved", async () => {
    const client = await connectClient(allKey);
    const requested = await client.callTool({
      name: "request_custody_wallet",
      arguments: { label: "Agent treasury", chain: "base", type: "mpc", idempotency_key: randomUUID() },
    });
    expect(requested.isError, text(requested)).toBeFalsy();
    const wallet = structured(requested);
    const approval = wallet.approval as { id: string; status: string; url: string };
    expect(approval).toEqual({
      id: wallet.approvalRequestId,
      status: "pending",
      url: expect.stringContaining(`/console/sandbox/approvals/${approval.id}`),
    });
    expect(text(requested)).toContain("a member must approve it");
    // Before the decision, activating is refused (403) with the problem whole.
    const early = await client.callTool({
      name: "activate_custody_wallet",
      arguments: { custodyWalletId: wallet.custodyWalletId, approvalRequestId: approval.id, idempotency_key: randomUUID() },
    });
    expect(early.isError).toBe(true);
    expect(text(early)).toMatch(/HTTP 403 FORBIDDEN/);
    expect(text(early)).toContain('"detail"');
    // Waiting while nobody decides ends within the request's deadline, still pending (never a 503).
    const waited = await client.callTool({ name: "get_approval_request", arguments: { approvalRequestId: approval.id, wait_seconds: 60 } });
    expect(waited.isError, text(waited)).toBeFalsy();
    expect(structured(waited).status).toBe("pending");
    // A person approves in a session (an API key never can).
    const decider = await deciderWithKey(server, ORG, allKey);
    const decided = await decider("POST", `/api/v2/agent/approvals/${approval.id}/approve`, {}, { "idempotency-key": randomUUID() });
    expect(decided.status, decided.text).toBe(200);
    const read = await client.callTool({ name: "get_approval_request", arguments: { approvalRequestId: approval.id, wait_seconds: 5 } });
    expect(structured(read).status).toBe("approved");
    const activated = await client.callTool({
      name: "activate_custody_wallet",
      arguments: { custodyWalletId: wallet.custodyWalletId, approvalRequestId: approval.id, idempotency_key: randomUUID() },
    });
    expect(activated.isError, text(activated)).toBeFalsy();
    expect(structured(activated).status).toBe("active");
    await client.close();
  });

  it("reads payments.volume for 7 days", async () => {
    const client = await connectClient(allKey);
    const metric = await client.callTool({ name: "get_metric", arguments: { metricId: "payments.volume", range: "7d" } });
    expect(metric.isError, text(metric)).toBeFalsy();
    expect(JSON.stringify(structured(metric))).toContain("payments.volume");
    await client.close();
  });
});

describe("the key decides", () => {
  it("a payments-only key lists only the tools its scope allows, never people-only or admin operations", async () => {
    const key = (await server.createKey({ organizationId: ORG, scopes: ["payments:write"], actor: "payer" })).key;
    const client = await connectClient(key);
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toContain("create_payment");
    expect(names).toContain("create_bank_transfer");
    expect(names).not.toContain("create_wallet");
    expect(names).not.toContain("request_custody_wallet");
    expect(names.some((n) => /approve|reject|admin|session|member|api_key/.test(n))).toBe(false);
    await client.close();
  });

  it("toolsets narrow the list and dynamic mode lists three tools that find, describe and invoke", async () => {
    const custody = await connectClient(allKey, "?toolsets=custody");
    expect(new Set((await custody.listTools()).tools.map((t) => t.name.split("_").includes("custody")))).toEqual(new Set([true]));
    await custody.close();
    const client = await connectClient(allKey, "?mode=dynamic");
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["find_operations", "describe_operation", "invoke_operation"]);
    const found = JSON.parse(text(await client.callTool({ name: "find_operations", arguments: { query: "bank transfer" } })));
    expect(found.operations.map((o: { name: string }) => o.name)).toContain("create_bank_transfer");
    const described = JSON.parse(text(await client.callTool({ name: "describe_operation", arguments: { name: "create_bank_transfer" } })));
    expect(described.inputSchema.properties.source.oneOf).toBeDefined();
    const invoked = await client.callTool({ name: "invoke_operation", arguments: { name: "list_bank_transfers", query: { limit: 1 } } });
    expect(invoked.isError, text(invoked)).toBeFalsy();
    await client.close();
  });

  it("a revoked or missing key is an HTTP 401 with WWW-Authenticate, never a tool result", async () => {
    const { id, key } = await server.createKey({ organizationId: ORG, scopes: ["payments:read"], actor: "gone" });
    const revoke = await fetch(`${server.url}/api/admin/keys/${id}`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${server.adminToken}` },
    });
    expect(revoke.status).toBe(200);
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} });
    for (const authorization of [`Bearer ${key}`, undefined]) {
      const res = await fetch(`${server.url}/mcp`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...(authorization ? { authorization } : {}),
        },
        body,
      });
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toMatch(/^Bearer /);
    }
    await expect(connectClient(key)).rejects.toThrow();
  });

  it("refuses a page of another origin (even one rebound to this host) and accepts the local machine's", async () => {
    const post = (origin: string, host?: string) =>
      fetch(`${server.url}/mcp`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          origin,
          ...(host ? { host } : {}),
          authorization: `Bearer ${allKey}`,
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
      });
    expect((await post("https://evil.example")).status).toBe(403);
    expect((await post("http://evil.example", "evil.example")).status).toBe(403);
    expect((await post("http://localhost:3000")).status).toBe(200);
  });
});

describe("refusals and visibility", () => {
  it("a refused call is isError with the problem whole (status, code, field errors), and /metrics counts calls by tool", async () => {
    const client = await connectClient(allKey);
    const refused = await client.callTool({
      name: "create_bank_transfer",
      arguments: {
        amount: "-1",
        currency: "EUR",
        source: DE_ACCOUNT,
        destination: FR_ACCOUNT,
        senderJurisdiction: "DE",
        receiverJurisdiction: "FR",
        idempotency_key: randomUUID(),
      },
    });
    expect(refused.isError).toBe(true);
    const [headline, advice, json] = text(refused).split("\n");
    expect(headline).toMatch(/^HTTP 400 VALIDATION_ERROR/);
    expect(advice).toMatch(/Not retryable/);
    const problem = JSON.parse(json as string);
    expect(problem).toMatchObject({ status: 400, code: "VALIDATION_ERROR", title: expect.any(String), requestId: expect.any(String) });
    expect(problem.errors.some((e: { path: string }) => e.path === "/body/amount")).toBe(true);
    await client.close();
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    expect(metrics).toMatch(/coinplane_mcp_tool_calls_total\{tool="create_bank_transfer",outcome="refused"\} [1-9]/);
    expect(metrics).toMatch(/coinplane_mcp_tool_calls_total\{tool="create_payment",outcome="ok"\} [1-9]/);
  });
});
