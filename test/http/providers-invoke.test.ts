// providers/invoke end to end: every error code the description lists for it, the four-eyes flow, simulator magic values.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deciderWithKey } from "../helpers/members.ts";
import { api, startTestServer, type TestServer } from "../helpers/test-server.ts";
import { ALL_WRITE_SCOPES, connect, idem } from "../helpers/v2.ts";

const INVOKE = "/api/v2/agent/providers/invoke";
const SANCTIONED = "0x7F367cC41522cE07553e823bf3be79A889DEbe1B";
const CLEAN = "0x27b1fdb04752bbc536007a920d24acb045561c26";
const fxQuote = (sellAmount = "1000.00") => ({
  providerSlug: "simulator",
  category: "fx",
  operation: "quote",
  input: { sellCurrency: "USD", buyCurrency: "EUR", sellAmount },
});
const custodyTransfer = (destination = CLEAN, amountMinor = "25000000") => ({
  providerSlug: "simulator",
  category: "custody",
  operation: "create_transfer",
  input: { walletId: "cw_sim_1", destination, asset: "USDC", amountMinor },
});

let server: TestServer;
let alice: ReturnType<typeof api>;
let bob: ReturnType<typeof api>;

async function invocationCount(): Promise<number> {
  return server.db.prisma.providerInvocation.count();
}

beforeAll(async () => {
  server = await startTestServer();
  alice = api(server.url, (await server.createKey({ scopes: ALL_WRITE_SCOPES, actor: "alice" })).key);
  bob = await deciderWithKey(server, "org_test", (await server.createKey({ scopes: ALL_WRITE_SCOPES, actor: "bob" })).key);
  await connect(server, { category: "fx" });
  await connect(server, { category: "custody" });
});
afterAll(() => server?.close());

describe("providers/invoke success paths", () => {
  it("runs a read operation on the connected simulator and says it is simulated", async () => {
    const res = await alice("POST", INVOKE, { ...fxQuote(), regime: { jurisdiction: "DE", framework: "mica" } });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      status: "succeeded",
      simulated: true,
      category: "fx",
      operation: "quote",
      screening: { decision: "clear" },
    });
    expect(res.json.output).toMatchObject({ sellCurrency: "USD", buyCurrency: "EUR", rate: "0.925926", buyAmount: "925.93" });
    expect(res.json.screening.decisionIds).toHaveLength(2);
  });

  it("reports not_required screening when there is nothing to screen", async () => {
    const res = await alice("POST", INVOKE, fxQuote());
    expect(res.status).toBe(200);
    expect(res.json.screening).toEqual({ decision: "not_required", source: null });
  });

  it("lists the directory with connection state and issues selection receipts that invoke accepts", async () => {
    const dir = await alice("GET", "/api/v2/agent/providers?category=fx");
    expect(dir.status).toBe(200);
    expect(dir.json.data[0]).toMatchObject({ providerSlug: "simulator", category: "fx", connected: true, scope: "fx:write" });
    const all = await alice("GET", "/api/v2/agent/providers");
    expect(new Set(all.json.data.map((p: { category: string }) => p.category)).size).toBe(7);
    expect(all.json.data.find((p: { category: string }) => p.category === "card_issuance").connected).toBe(false);
    const receipt = await alice("POST", "/api/v2/agent/providers/select", { category: "fx", operation: "quote" });
    expect(receipt.status).toBe(201);
    expect(receipt.json).toMatchObject({ category: "fx", operation: "quote", providerSlug: "simulator", simulated: true });
    const res = await alice("POST", INVOKE, { ...fxQuote(), selectionReceiptId: receipt.json.selectionReceiptId });
    expect(res.status).toBe(200);
    expect(res.json.selectionReceiptId).toBe(receipt.json.selectionReceiptId);
  });
});

describe("four-eyes: operations that require approval", () => {
  it("answers 202 with an approval request, refuses the requester's own approval, then executes once with a second actor's", async () => {
    const body = custodyTransfer();
    const pending = await alice("POST", INVOKE, body, idem());
    expect(pending.status).toBe(202);
    expect(pending.json).toMatchObject({ status: "pending_approval", output: null });
    const approvalId = pending.json.approvalRequestId;
    expect(approvalId).toMatch(/^apr_/);

    const tooEarly = await alice("POST", INVOKE, { ...body, approvalRequestId: approvalId }, idem());
    expect(tooEarly.status).toBe(403);
    expect(tooEarly.json.code).toBe("FORBIDDEN");

    const self = await alice("POST", `/api/v2/agent/approvals/${approvalId}/approve`, {});
    expect(self.status).toBe(403);
    const approved = await bob("POST", `/api/v2/agent/approvals/${approvalId}/approve`, { reason: "checked" });
    expect(approved.status).toBe(200);

    const otherInput = await alice("POST", INVOKE, { ...custodyTransfer(CLEAN, "99"), approvalRequestId: approvalId }, idem());
    expect(otherInput.status).toBe(403);

    const done = await alice("POST", INVOKE, { ...body, approvalRequestId: approvalId }, idem());
    expect(done.status).toBe(200);
    expect(done.json).toMatchObject({
      status: "succeeded",
      approvalRequestId: approvalId,
      simulated: true,
      output: { state: "submitted" },
    });

    const again = await alice("POST", INVOKE, { ...body, approvalRequestId: approvalId }, idem());
    expect(again.status).toBe(403);
  });

  it("leaves the approval unused when the provider fails (502), so it can be retried", async () => {
    const body = custodyTransfer("0x000000000000000000000000000000000000dEaD");
    const pending = await alice("POST", INVOKE, body, idem());
    await bob("POST", `/api/v2/agent/approvals/${pending.json.approvalRequestId}/approve`, {});
    const before = await invocationCount();
    const failed = await alice("POST", INVOKE, { ...body, approvalRequestId: pending.json.approvalRequestId }, idem());
    expect(failed.status).toBe(502);
    expect(failed.json.code).toBe("PROVIDER_EXECUTION_FAILED");
    expect(await invocationCount()).toBe(before);
    const approval = await alice("GET", `/api/v2/agent/approvals/${pending.json.approvalRequestId}`);
    expect(approval.json.consumed).toBe(false);
  });
});

describe("providers/invoke error codes", () => {
  const cases: Array<[string, () => Promise<{ status: number; json: { code: string } }>, number, string]> = [
    ["write operation without Idempotency-Key", () => alice("POST", INVOKE, custodyTransfer()), 400, "IDEMPOTENCY_KEY_REQUIRED"],
    [
      "input not matching the operation schema",
      () => alice("POST", INVOKE, { ...fxQuote(), input: { sellCurrency: "USD" } }),
      400,
      "INVALID_INPUT",
    ],
    [
      "travel rule data missing",
      () => alice("POST", INVOKE, { ...custodyTransfer(), regime: { jurisdiction: "DE", travelRule: true } }, idem()),
      400,
      "INVALID_INPUT",
    ],
    ["unknown body field", () => alice("POST", INVOKE, { ...fxQuote(), extra: 1 }), 400, "VALIDATION_ERROR"],
    ["missing category", () => alice("POST", INVOKE, { providerSlug: "simulator", operation: "quote" }), 400, "VALIDATION_ERROR"],
    ["no API key", () => api(server.url)("POST", INVOKE, fxQuote()), 401, "UNAUTHORIZED"],
    ["sanctioned destination", () => alice("POST", INVOKE, custodyTransfer(SANCTIONED), idem()), 403, "COMPLIANCE_BLOCKED"],
    [
      "sanctioned regime jurisdiction",
      () => alice("POST", INVOKE, { ...fxQuote(), regime: { jurisdiction: "KP" } }),
      403,
      "COMPLIANCE_BLOCKED",
    ],
    ["unknown provider", () => alice("POST", INVOKE, { ...fxQuote(), providerSlug: "acmefx" }), 404, "NOT_FOUND"],
    ["unknown operation", () => alice("POST", INVOKE, { ...fxQuote(), operation: "swap" }), 404, "NOT_FOUND"],
    ["unknown selection receipt", () => alice("POST", INVOKE, { ...fxQuote(), selectionReceiptId: "psr_nope" }), 404, "NOT_FOUND"],
    ["unknown approval", () => alice("POST", INVOKE, { ...custodyTransfer(), approvalRequestId: "apr_nope" }, idem()), 404, "NOT_FOUND"],
    ["provider failure (magic amount 666.66)", () => alice("POST", INVOKE, fxQuote("666.66")), 502, "PROVIDER_EXECUTION_FAILED"],
  ];
  it.each(cases)("%s → %i %s", async (_name, send, status, code) => {
    const before = await invocationCount();
    const res = await send();
    expect(res.status).toBe(status);
    expect(res.json.code).toBe(code);
    expect(await invocationCount()).toBe(before);
  });

  it("403 FORBIDDEN for a key without the category's scope, and COMPLIANCE_BLOCKED reasons name the rule", async () => {
    const paymentsOnly = api(server.url, (await server.createKey({ scopes: ["payments:write"] })).key);
    const res = await paymentsOnly("POST", INVOKE, fxQuote());
    expect(res.status).toBe(403);
    expect(res.json.code).toBe("FORBIDDEN");
    const blocked = await alice("POST", INVOKE, custodyTransfer(SANCTIONED), idem());
    expect(blocked.json.reasons.map((r: { rule: string }) => r.rule)).toContain("sanctions.address");
  });

  it("400 INVALID_INPUT when the selection receipt names another operation", async () => {
    await connect(server, { category: "chain_read" });
    const receipt = await alice("POST", "/api/v2/agent/providers/select", { category: "chain_read", operation: "get_block_number" });
    const res = await alice("POST", INVOKE, { ...fxQuote(), selectionReceiptId: receipt.json.selectionReceiptId });
    expect(res.status).toBe(400);
    expect(res.json.code).toBe("INVALID_INPUT");
  });

  // Rule 2 of the description: until live providers are connected the behaviour is simulation.
  it("in the sandbox, without a reviewed connection (none, or only an unreviewed one), the category's simulator serves", async () => {
    const rails = await alice("POST", INVOKE, {
      providerSlug: "simulator",
      category: "bank_transfer",
      operation: "list_rails",
      input: { country: "DE" },
    });
    expect(rails.status, JSON.stringify(rails.json)).toBe(200);
    expect(rails.json).toMatchObject({ status: "succeeded", simulated: true, providerSlug: "simulator" });
    await connect(server, { category: "compliance_screening", reviewed: false });
    const screened = await alice("POST", INVOKE, {
      providerSlug: "simulator",
      category: "compliance_screening",
      operation: "screen_address",
      input: { address: CLEAN },
    });
    expect(screened.status, JSON.stringify(screened.json)).toBe(200);
    expect(screened.json.simulated).toBe(true);
  });

  // invoke's list of codes in the description has no 424: a provider that no reviewed connection makes available is 404.
  it("404 NOT_FOUND, never 424, for a production key without a reviewed connection and for custody without one", async () => {
    const prod = api(server.url, (await server.createKey({ environment: "production", scopes: ALL_WRITE_SCOPES })).key);
    const live = await prod("POST", INVOKE, fxQuote());
    expect(live.status).toBe(404);
    expect(live.json.code).toBe("NOT_FOUND");
    expect(live.json.detail).toMatch(/No reviewed fx provider connection/);
    const fresh = api(server.url, (await server.createKey({ organizationId: "org_invoke_no_custody", scopes: ALL_WRITE_SCOPES })).key);
    const before = await invocationCount();
    const custody = await fresh("POST", INVOKE, custodyTransfer(), idem());
    expect(custody.status).toBe(404);
    expect(custody.json.code).toBe("NOT_FOUND");
    expect(await invocationCount()).toBe(before);
  });

  it("500 SERVER_MISCONFIGURED when the connection's config is unusable", async () => {
    await connect(server, { category: "token_issuance", config: { reserveRatio: "high" } });
    const res = await alice("POST", INVOKE, {
      providerSlug: "simulator",
      category: "token_issuance",
      operation: "get_reserve_ratio",
      input: {},
    });
    expect(res.status).toBe(500);
    expect(res.json.code).toBe("SERVER_MISCONFIGURED");
  });

  it("409 IDEMPOTENCY_IN_PROGRESS and 422 IDEMPOTENCY_KEY_REUSED", async () => {
    const key = idem();
    const results = await Promise.all(Array.from({ length: 8 }, () => alice("POST", INVOKE, fxQuote("10.00"), key)));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toContain(200);
    expect(statuses.every((s) => s === 200 || s === 409)).toBe(true);
    const reused = await alice("POST", INVOKE, fxQuote("11.00"), key);
    expect(reused.status).toBe(422);
    expect(reused.json.code).toBe("IDEMPOTENCY_KEY_REUSED");
  });

  it("500 INTERNAL_ERROR without internals when the invocation cannot be recorded, and nothing is half-written", async () => {
    const body = custodyTransfer(CLEAN, "31000000");
    const pending = await alice("POST", INVOKE, body, idem());
    await bob("POST", `/api/v2/agent/approvals/${pending.json.approvalRequestId}/approve`, {});
    await server.db.prisma.$executeRawUnsafe(`ALTER TABLE "ProviderInvocation" RENAME TO "ProviderInvocation_broken"`);
    try {
      const res = await alice("POST", INVOKE, { ...body, approvalRequestId: pending.json.approvalRequestId }, idem());
      expect(res.status).toBe(500);
      expect(res.json.code).toBe("INTERNAL_ERROR");
      expect(JSON.stringify(res.json)).not.toMatch(/ProviderInvocation|relation|stack/i);
    } finally {
      await server.db.prisma.$executeRawUnsafe(`ALTER TABLE "ProviderInvocation_broken" RENAME TO "ProviderInvocation"`);
    }
    const approval = await alice("GET", `/api/v2/agent/approvals/${pending.json.approvalRequestId}`);
    expect(approval.json.consumed).toBe(false);
  });
});
