// What an integrator rehearses against the partner mock before the sandbox: its test keys (401, 403), the X-Mock-*
// headers and their refusals, the server's validation answers, 404s that name the resource, every created resource read
// back by every operation that names it, deletion, views of a resource, and the FX quote computed from its input.
// (The same answers as the real server: contract-server-and-mock.test.ts.)
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { mockData } from "../../sdk/src/generated/mock-data.ts";
import { createCoinplaneMock, MOCK_ORGANIZATION_ID, mockApiKeys } from "../../sdk/src/mock/index.ts";
import type { MockOperationSpec } from "../../sdk/src/mock/types.ts";
import type { SpecOperation } from "../helpers/spec-requests.ts";
import { expectValid, mockExampleRequest, type Sent, sender, sessionFor, specOp } from "./mock-helpers.ts";

const BASE = "http://rehearsal.coinplane.test";
const CUSTOM_KEY = `cp_sandbox_${"custom".padEnd(43, "0")}`;
const mock = createCoinplaneMock({
  baseUrl: BASE,
  apiKeys: { [CUSTOM_KEY]: { environment: "sandbox", organizationId: MOCK_ORGANIZATION_ID, scopes: ["wallets:read"] } },
});
const server = setupServer(...mock.handlers);
const send = sender(BASE);
const as = (key: string) => sender(BASE, key);

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => mock.reset());
afterAll(() => server.close());

const EVM = "0x52908400098527886E0F7030069857D2E4169EE7";
const fx = (input: Record<string, unknown>) => ({ providerSlug: "simulator", category: "fx", operation: "quote", input });
const ops = mockData.operations;
const op = (id: string) => ops.find((o) => o.operationId === id) as MockOperationSpec;
const messageOf = (res: Sent) => res.body.detail ?? res.body.error;

describe("test keys", () => {
  it.each([
    ["no key", { authorization: "" }, "Missing or invalid API key"],
    ["a key the mock does not know", { authorization: `Bearer cp_sandbox_${"x".repeat(43)}` }, "Missing or invalid API key"],
    ["a malformed authorization", { authorization: "Basic abc" }, "Missing or invalid API key"],
  ])("%s → 401 in the v1 shape", async (_name, headers, message) => {
    const res = await send("GET", "/api/v1/wallets", undefined, headers);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: message, code: "unauthorized", requestId: res.headers.get("x-request-id") });
    expectValid(specOp("listWallets"), res);
  });

  it("a key in the query string → 401, as the API refuses it there", async () => {
    const res = await send("GET", `/api/v1/wallets?api_key=${mockApiKeys.sandbox}`);
    expect(res.status).toBe(401);
    expect(res.body.error).toBe("API keys are accepted only in the Authorization header");
  });

  it("no key on the agent API → 401 problem+json", async () => {
    const res = await send("GET", "/api/v2/agent/events", undefined, { authorization: "" });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({
      code: "UNAUTHORIZED",
      status: 401,
      instance: "/api/v2/agent/events",
      detail: "Missing or invalid API key",
    });
    expect(res.contentType).toBe("application/problem+json; charset=utf-8");
  });

  it("the read-only key reads, and gets 403 naming the scope on a write", async () => {
    const readOnly = as(mockApiKeys.sandboxReadOnly);
    expect((await readOnly("GET", "/api/v1/wallets")).status).toBe(200);
    const write = await readOnly("POST", "/api/v1/wallets", { chain: "base" });
    expect(write.status).toBe(403);
    expect(write.body.error).toBe("This API key lacks the scope wallets:write required by this operation");
    const invoke = await readOnly(
      "POST",
      "/api/v2/agent/providers/invoke",
      fx({ sellCurrency: "USD", buyCurrency: "EUR", sellAmount: "1" }),
    );
    expect(invoke.status).toBe(403);
    expect(invoke.body.detail).toBe("This API key lacks the scope fx:write required for fx providers");
    expectValid(specOp("invokeProvider"), invoke);
  });

  it("the production key: 403 on the sandbox API, accepted on the agent API", async () => {
    const production = as(mockApiKeys.production);
    const v1 = await production("POST", "/api/v1/payments", { amount: "1", stablecoin: "USDC", chain: "base", toAddress: EVM });
    expect(v1.status).toBe(403);
    expect(v1.body.error).toBe("This endpoint is sandbox-only; use a sandbox API key");
    expect((await production("GET", "/api/v2/agent/events")).status).toBe(200);
  });

  it("a body naming another organization → 403", async () => {
    const res = await send("POST", "/api/v2/agent/compliance/screen", {
      ...(mockExampleRequest(specOp("screenCompliance")).body as object),
      organizationId: "org_other",
    });
    expect(res.status).toBe(403);
    expect(res.body.detail).toBe("organizationId does not match the API key's organization");
  });

  it("apiKeys adds keys with their own scopes", async () => {
    const custom = as(CUSTOM_KEY);
    expect((await custom("GET", "/api/v1/wallets")).status).toBe(200);
    expect((await custom("GET", "/api/v1/payments")).status).toBe(403);
  });

  it("the scheduler's dispatch needs X-Scheduler-Secret (any value in the mock)", async () => {
    const path = "/api/v2/agent/payments/corridor/workflows/dispatch";
    const missing = await send("POST", path, undefined, { authorization: "" });
    expect(missing.status).toBe(401);
    expect(missing.body.detail).toBe("Missing or invalid scheduler secret");
    expect((await send("POST", path, undefined, { authorization: "", "x-scheduler-secret": "s" })).status).toBe(200);
  });
});

describe("X-Mock-* headers", () => {
  it("an unknown X-Mock-Example → 400 listing the operation's examples (v2 problem)", async () => {
    const req = mockExampleRequest(specOp("invokeProvider"));
    const res = await send(req.method, req.path, req.body, { ...req.headers, "x-mock-example": "nope" });
    expect(res.status).toBe(400);
    const message = "must name a success example of invokeProvider: fxQuote, custodyTransfer, pendingApproval";
    expect(res.body).toMatchObject({ code: "VALIDATION_ERROR", errors: [{ path: "/headers/x-mock-example", message }] });
    expectValid(specOp("invokeProvider"), res);
  });

  it("an unknown X-Mock-Example on an operation without named examples → 400 saying so (v1 shape)", async () => {
    const res = await send("GET", "/api/v1/wallets", undefined, { "x-mock-example": "firstPage" });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("invalid_request");
    expect(res.body.errors).toEqual([
      { path: "/headers/x-mock-example", message: expect.stringMatching(/^must name a success example of listWallets: /) },
    ]);
    expectValid(specOp("listWallets"), res);
  });

  it("X-Mock-Example picks an example of another success status (202 pending approval)", async () => {
    const req = mockExampleRequest(specOp("invokeProvider"));
    const res = await send(req.method, req.path, req.body, { ...req.headers, "x-mock-example": "pendingApproval" });
    expect(res.status).toBe(202);
    expect(res.body.status).toBe("pending_approval");
  });

  it("an undocumented X-Mock-Error → 400 listing the documented codes, without a stray member", async () => {
    const res = await send("GET", "/api/v1/wallets", undefined, { "x-mock-error": "CARD_LEDGER_CONFLICT" });
    expect(res.status).toBe(400);
    const documented = [...new Set(op("listWallets").responses.flatMap((r) => r.examples.flatMap((e) => (e.code ? [e.code] : []))))];
    const message = `must be an error code listWallets documents: ${documented.join(", ")}`;
    expect(res.body).toEqual({
      error: `/headers/x-mock-error ${message}`,
      code: "invalid_request",
      requestId: expect.any(String),
      errors: [{ path: "/headers/x-mock-error", message }],
    });
  });

  it("an undocumented X-Mock-Status → 400 listing the documented error statuses", async () => {
    const res = await send("GET", "/api/v1/wallets", undefined, { "x-mock-status": "418" });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].message).toBe("must be an error status listWallets documents: 400, 401, 403, 429, 500, 503");
  });

  it("X-Mock-Status with X-Mock-Error picks that status's example with that code", async () => {
    const req = mockExampleRequest(specOp("createCustodyWallet"));
    const res = await send(req.method, req.path, req.body, {
      ...req.headers,
      "x-mock-status": "503",
      "x-mock-error": "SOURCE_NOT_AVAILABLE",
    });
    expect(res.status).toBe(503);
    expect(res.body.code).toBe("SOURCE_NOT_AVAILABLE");
    expect(res.headers.get("retry-after")).toBe("1");
    const mismatch = await send(req.method, req.path, req.body, {
      ...req.headers,
      "x-mock-status": "424",
      "x-mock-error": "SOURCE_NOT_AVAILABLE",
    });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.errors[0].message).toMatch(/^must be an error code createCustodyWallet documents for 424: PROVIDER_NOT_CONNECTED/);
  });

  it("a forced error is the documented example: `errors` only where the example has it", async () => {
    for (const operation of ops.filter((o) => o.security === "apiKey")) {
      for (const response of operation.responses.filter((r) => r.status >= 400)) {
        for (const example of response.examples.filter((e) => e.code)) {
          const req = mockExampleRequest(specOp(operation.operationId));
          const res = await send(req.method, req.path, req.body, {
            ...req.headers,
            "x-mock-error": example.code as string,
            "x-mock-status": String(response.status),
          });
          const documented = mockData.values[example.value] as Record<string, unknown>;
          expect(Object.keys(res.body).sort(), `${operation.operationId} ${example.code}`).toEqual(Object.keys(documented).sort());
        }
      }
    }
  });
});

// Operations whose 404 names a resource: its last path parameter's, else the first body reference's.
const nounOf = (o: MockOperationSpec) => {
  const store = [...o.params].reverse().find((p) => p.in === "path" && p.resource)?.resource ?? o.bodyRefs?.[0]?.resource;
  return store ? mockData.schemas[store]?.noun : undefined;
};
const with404 = ops
  .filter((o) => o.responses.some((r) => r.status === 404) && nounOf(o))
  .map((o) => [o.operationId, nounOf(o) as string] as const);

describe("404 names the resource, as the API does", () => {
  it.each(with404)("%s: X-Mock-Status 404 → %s not found", async (id, noun) => {
    const req = mockExampleRequest(specOp(id));
    const res = await send(req.method, req.path, req.body, { ...req.headers, ...sessionFor(specOp(id)), "x-mock-status": "404" });
    expect(res.status).toBe(404);
    expect(messageOf(res)).toBe(`${noun} not found`);
    expectValid(specOp(id), res);
  });

  // Every reference to a resource the mock creates, with an id it never created: 404 with that resource's message.
  const refs = ops.flatMap((o) => {
    const path = o.params
      .filter((p) => p.in === "path" && p.resource)
      .map((p) => ({ name: p.name, where: "path" as const, store: p.resource as string }));
    const body = (o.bodyRefs ?? []).map((r) => ({ name: r.field, where: "body" as const, store: r.resource }));
    return [...path, ...body]
      .filter((r) => mockData.schemas[r.store]?.creatable && o.responses.some((x) => x.status === 404))
      .map((r) => [o.operationId, r.where, r.name, r.store] as const);
  });

  it.each(refs)("%s: an unknown %s %s → 404 %s not found", async (id, where, name, store) => {
    const unknown = `${mockData.schemas[store]?.idPrefix}unknown0000000000000000000`;
    const example = requestNaming(specOp(id), where, name, unknown);
    if (!example) throw new Error(`no request example of ${id} carries ${name}`);
    const res = await send(example.method, example.path, example.body, { ...example.headers, ...sessionFor(specOp(id)) });
    expect(res.status, JSON.stringify(res.body)).toBe(404);
    expect(messageOf(res)).toBe(`${mockData.schemas[store]?.noun} not found`);
    expectValid(specOp(id), res);
  });
});

/** The operation's example request with `name` (a path parameter, or a body field) set to `id`; for a body field, the
 * first request example that carries it (another shape may not allow it); undefined when none does. */
function requestNaming(spec: SpecOperation, where: "path" | "body", name: string, id: string) {
  if (where === "path") return mockExampleRequest(spec, { [name]: id });
  const req = mockExampleRequest(spec);
  const media = (spec.raw.requestBody as { content?: Record<string, { examples?: Record<string, { value?: unknown }> }> } | undefined)
    ?.content?.["application/json"];
  const bodies = Object.values(media?.examples ?? {}).map((e) => e.value as Record<string, unknown>);
  const body = bodies.find((b) => b && typeof b === "object" && name in b);
  return body ? { ...req, body: { ...structuredClone(body), [name]: id } } : undefined;
}

describe("created resources are read back by every operation that names them", () => {
  // Creations: a POST answering a new resource of a store the mock creates.
  const creators = ops.filter((o) => {
    const store = o.resource ? mockData.schemas[o.resource.schema]?.store : undefined;
    const creates = o.responses.some((r) => r.status === 201 || r.status === 202);
    // A write that never answers 201 and may name a resource of its store in its body acts on that resource
    // (cancelBankTransfer: 200, or 202 while the bank's answer is being confirmed), as the mock treats it.
    const actsOnNamed = !o.responses.some((r) => r.status === 201) && (o.bodyRefs ?? []).some((r) => r.resource === store);
    return (
      o.method === "POST" &&
      creates &&
      !actsOnNamed &&
      store &&
      mockData.schemas[store]?.creatable &&
      !o.params.some((p) => p.resource === store)
    );
  });
  const pairs = creators.flatMap((creator) => {
    const store = mockData.schemas[creator.resource?.schema as string]?.store as string;
    return ops.flatMap((reader) => {
      const path = reader.params.filter((p) => p.in === "path" && p.resource === store).map((p) => ["path", p.name] as const);
      const body = (reader.bodyRefs ?? []).filter((r) => r.resource === store).map((r) => ["body", r.field] as const);
      return [...path, ...body].map(([where, name]) => [creator.operationId, reader.operationId, where, name] as const);
    });
  });

  it("covers the spec's create/read pairs", () => {
    const covered = new Set(pairs.map(([c, r]) => `${c}→${r}`));
    for (const pair of [
      "createWallet→getWallet",
      "createPayment→getPayment",
      "createBankTransfer→getBankTransferStatus",
      "simulateCorridor→getCorridorWorkflowRun",
      "createCustodyWallet→getCustodyWalletBalance",
      "createCustodyTransfer→getCustodyTransferStatus",
      "requestMint→getIssuanceRequest",
      "issueCard→getCard",
      "createWebhookEndpoint→getWebhookEndpoint",
      "generateContract→getContractProject",
      "sendTestWebhookEvent→getEvent",
      "simulateCardAuthorization→captureCardAuthorization",
      "createCardProgramme→issueCard",
      "selectProvider→invokeProvider",
    ]) {
      expect(covered, pair).toContain(pair);
    }
  });

  it.each(pairs)("%s → %s (%s %s)", async (creatorId, readerId, where, name) => {
    const creator = op(creatorId);
    const made = mockExampleRequest(specOp(creatorId));
    const created = await send(made.method, made.path, made.body, { ...made.headers, ...sessionFor(specOp(creatorId)) });
    expect(created.status, JSON.stringify(created.body)).toBeLessThan(300);
    const schema = mockData.schemas[creator.resource?.schema as string];
    const id = created.body[schema?.idField as string] as string;
    expect(mockData.schemas[schema?.store as string]?.exampleIds).not.toContain(id);
    const read = requestNaming(specOp(readerId), where, name, id);
    if (!read) throw new Error(`no request example of ${readerId} carries ${name}`);
    const res = await send(read.method, read.path, read.body, { ...read.headers, ...sessionFor(specOp(readerId)) });
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
    expectValid(specOp(readerId), res);
    const reader = op(readerId);
    const readSchema = reader.resource ? mockData.schemas[reader.resource.schema] : undefined;
    if (readSchema?.store === schema?.store && readSchema?.idField) expect(res.body[readSchema.idField]).toBe(id);
    if (reader.method === "GET" && reader.resource?.schema === creator.resource?.schema) expect(res.body).toEqual(created.body);
  });

  it("a created resource's later state comes back: freeze a card, read it frozen with its identity", async () => {
    const req = mockExampleRequest(specOp("issueCard"));
    const card = await send(req.method, req.path, req.body, req.headers);
    const frozen = await send("POST", `/api/v2/agent/cards/${card.body.cardId}/freeze`, { reason: "lost" }, { "idempotency-key": "f" });
    const read = await send("GET", `/api/v2/agent/cards/${card.body.cardId}`);
    expect(read.body).toEqual(frozen.body);
    expect(read.body).toMatchObject({ cardId: card.body.cardId, cardholderId: card.body.cardholderId, status: "frozen" });
  });

  it("a webhook endpoint's secret is shown on creation only, and a deleted endpoint is gone", async () => {
    const req = mockExampleRequest(specOp("createWebhookEndpoint"));
    const created = await send(req.method, req.path, req.body, req.headers);
    expect(created.status).toBe(201);
    expect(created.body.secret).toMatch(/^whsec_/);
    const read = await send("GET", `/api/v2/agent/webhook-endpoints/${created.body.id}`);
    expect(read.body.secret).toBeUndefined();
    expect(read.body.url).toBe(created.body.url);
    expectValid(specOp("getWebhookEndpoint"), read);
    const list = await send("GET", "/api/v2/agent/webhook-endpoints");
    expect(list.body.data.map((e: { id: string; secret?: string }) => [e.id, e.secret])).toEqual([[created.body.id, undefined]]);
    expect((await send("DELETE", `/api/v2/agent/webhook-endpoints/${created.body.id}`)).status).toBe(204);
    const gone = await send("GET", `/api/v2/agent/webhook-endpoints/${created.body.id}`);
    expect(gone.status).toBe(404);
    expect(gone.body.detail).toBe("Webhook endpoint not found");
  });

  it("a custody wallet created pending approval is activated by its second step, keeping its id", async () => {
    const req = mockExampleRequest(specOp("createCustodyWallet"));
    const pending = await send(req.method, req.path, req.body, req.headers);
    expect(pending).toMatchObject({ status: 201, body: { status: "pending_approval" } });
    const activate = { custodyWalletId: pending.body.custodyWalletId, approvalRequestId: pending.body.approvalRequestId };
    const active = await send("POST", "/api/v2/agent/custody/wallets", activate, { "idempotency-key": "activate" });
    expect(active.status).toBe(200);
    expect(active.body).toMatchObject({ custodyWalletId: pending.body.custodyWalletId, status: "active", label: pending.body.label });
  });
});

describe("request validation, as the server answers it", () => {
  const withBody = ops.filter((o) => o.request.body?.required);
  it.each(withBody.map((o) => o.operationId))("%s: a body of the wrong type → 400 with errors", async (id) => {
    const req = mockExampleRequest(specOp(id));
    const res = await send(req.method, req.path, ["not", "an", "object"], { ...req.headers, ...sessionFor(specOp(id)) });
    expect(res.status).toBe(400);
    expect(res.body.code).toMatch(/^(VALIDATION_ERROR|invalid_request)$/);
    expect(res.body.errors.length).toBeGreaterThan(0);
    expect(res.body.errors.every((e: { path: string }) => e.path.startsWith("/body"))).toBe(true);
    expectValid(specOp(id), res);
  });

  it.each(withBody.map((o) => o.operationId))("%s: a required body sent as text/plain → 415", async (id) => {
    const req = mockExampleRequest(specOp(id));
    const res = await fetch(`${BASE}${req.path}`, {
      method: req.method,
      headers: { authorization: `Bearer ${mockApiKeys.sandbox}`, "content-type": "text/plain", ...req.headers, ...sessionFor(specOp(id)) },
      body: JSON.stringify(req.body),
    });
    expect(res.status).toBe(415);
  });

  const withQuery = ops.filter((o) => o.security === "apiKey" && o.method === "GET");
  it.each(withQuery.map((o) => o.operationId))("%s: an unknown query parameter → 400 naming it", async (id) => {
    const req = mockExampleRequest(specOp(id));
    const res = await send(req.method, `${req.path}${req.path.includes("?") ? "&" : "?"}colour=red`);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ path: "/query/colour", message: "Unknown query parameter 'colour'" }]);
  });

  it("a oneOf body: each shape accepted, none or both refused with the branches' errors", async () => {
    const path = "/api/v2/agent/custody/transfers/status";
    const byId = await send("POST", path, { custodyTransferId: "ct_9Bd3Fg6Hj1Kl4Mn7Pq2Rs5" });
    expect(byId.status).toBe(200);
    const byProvider = await send("POST", path, { transferId: "sim_tx_58c1e0a4" });
    expect(byProvider.status).toBe(200);
    const both = await send("POST", path, { custodyTransferId: "ct_9Bd3Fg6Hj1Kl4Mn7Pq2Rs5", transferId: "x" });
    expect(both.status).toBe(400);
    expect(both.body.errors.map((e: { path: string }) => e.path)).toEqual(["/body/transferId", "/body/custodyTransferId", "/body"]);
  });

  it("invalid JSON → 400 before anything else, even without a key", async () => {
    const res = await fetch(`${BASE}/api/v1/wallets`, { method: "POST", headers: { "content-type": "application/json" }, body: "{" });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: "invalid_request", errors: [{ path: "/body", message: "malformed JSON" }] });
  });

  it("unknown routes and methods under the base URL → 404 / 405 with Allow", async () => {
    const missing = await send("GET", "/api/v2/agent/nowhere");
    expect(missing).toMatchObject({ status: 404, body: { code: "NOT_FOUND", detail: "No route for GET /api/v2/agent/nowhere" } });
    const method = await send("DELETE", "/api/v1/wallets");
    expect(method.status).toBe(405);
    expect(method.headers.get("allow")).toBe("GET, POST");
  });
});

describe("the FX quote is computed from its input", () => {
  it.each([
    ["USD", "EUR", "100.00", "0.925926", "92.59"],
    ["EUR", "JPY", "250.5", "161.194030", "40379.10"],
    ["GBP", "USDC", "10", "1.270000", "12.70"],
  ])("%s → %s, sell %s: rate %s, buy %s", async (sellCurrency, buyCurrency, sellAmount, rate, buyAmount) => {
    const res = await send("POST", "/api/v2/agent/providers/invoke", fx({ sellCurrency, buyCurrency, sellAmount }));
    expect(res.status).toBe(200);
    expect(res.body.output).toMatchObject({ sellCurrency, buyCurrency, sellAmount, rate, buyAmount });
    expect(Date.parse(res.body.output.expiresAt) - Date.parse(res.body.createdAt)).toBe(60_000);
    expectValid(specOp("invokeProvider"), res);
  });

  it("two quotes are two quotes", async () => {
    const body = fx({ sellCurrency: "USD", buyCurrency: "EUR", sellAmount: "1" });
    const [a, b] = [await send("POST", "/api/v2/agent/providers/invoke", body), await send("POST", "/api/v2/agent/providers/invoke", body)];
    expect(a.body.output.quoteId).not.toBe(b.body.output.quoteId);
    expect(a.body.invocationId).not.toBe(b.body.invocationId);
  });

  it("an input the simulator refuses → 400 INVALID_INPUT with its errors", async () => {
    const res = await send(
      "POST",
      "/api/v2/agent/providers/invoke",
      fx({ sellCurrency: "XXX", buyCurrency: "EUR", sellAmount: "1.0000001" }),
    );
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "INVALID_INPUT", detail: "input does not match the quote input schema" });
    expect(res.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(["/body/input/sellAmount", "/body/input/sellCurrency"]);
    expectValid(specOp("invokeProvider"), res);
  });

  it("the magic amount 666.66 → 502 PROVIDER_EXECUTION_FAILED", async () => {
    const res = await send("POST", "/api/v2/agent/providers/invoke", fx({ sellCurrency: "USD", buyCurrency: "EUR", sellAmount: "666.66" }));
    expect(res.status).toBe(502);
    expect(res.body.code).toBe("PROVIDER_EXECUTION_FAILED");
  });

  it("X-Mock-Example fxQuote answers the documented example instead", async () => {
    const res = await send("POST", "/api/v2/agent/providers/invoke", fx({ sellCurrency: "GBP", buyCurrency: "EUR", sellAmount: "5" }), {
      "x-mock-example": "fxQuote",
    });
    expect(res.body.output).toMatchObject({ sellCurrency: "USD", buyCurrency: "EUR", sellAmount: "1000.00" });
  });
});
