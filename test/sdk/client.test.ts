// The SDK client against msw (onUnhandledRequest: "error"): retries and backoff (Retry-After honoured, full jitter,
// capped), Idempotency-Key generation and reuse across retries, the typed error hierarchy for both error shapes,
// timeouts, pagination (limit/offset and cursor), hooks, configuration checks.
import { HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  backoffDelay,
  Coinplane,
  CoinplaneAuthenticationError,
  CoinplaneConfigurationError,
  CoinplaneConflictError,
  CoinplaneConnectionError,
  CoinplaneError,
  CoinplaneFailedDependencyError,
  CoinplaneInternalServerError,
  CoinplaneNotFoundError,
  type CoinplaneOptions,
  CoinplaneRateLimitError,
  CoinplaneTimeoutError,
  isCoinplaneError,
  type ResponseHookEvent,
} from "../../sdk/src/index.ts";

const BASE = "http://api.coinplane.test";
const KEY = "cp_sandbox_test0000000000000000000000000000000000";
const server = setupServer();

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const wallet = {
  id: "wal_2YVq9M3bR6t8KxW1pZ7cNd",
  address: "0x52908400098527886E0F7030069857D2E4169EE7",
  chain: "base",
  label: null,
  balance: "3000.00",
  createdAt: "2026-11-22T10:15:30.000Z",
};
const payment = (i: number) => ({
  id: `pay_${String(i).padStart(22, "0")}`,
  status: "confirmed",
  amount: `${i}.00`,
  stablecoin: "USDC",
  chain: "base",
  toAddress: "0x52908400098527886E0F7030069857D2E4169EE7",
  txHash: "0x9f3c1a7e5b2d4c6f8a0e1b3d5f7a9c2e4b6d8f0a1c3e5b7d9f2a4c6e8b0d1f3a",
  fees: "0.1455",
  metadata: null,
  createdAt: "2026-11-22T10:16:02.000Z",
});
const problem = (status: number, code: string, extra: object = {}) =>
  HttpResponse.json(
    {
      type: `https://docs.coinplane.dev/errors/${code.toLowerCase()}`,
      title: code,
      status,
      detail: `detail of ${code}`,
      instance: "/x",
      code,
      requestId: "req_problem_1",
      ...extra,
    },
    { status, headers: { "content-type": "application/problem+json", "x-request-id": "req_problem_1" } },
  );
const v1Error = (status: number, code: string, headers: Record<string, string> = {}) =>
  HttpResponse.json(
    { error: `message of ${code}`, code, requestId: "req_v1_1" },
    { status, headers: { "x-request-id": "req_v1_1", ...headers } },
  );

/** A client whose sleeps are recorded instead of waited. */
function client(options: Partial<CoinplaneOptions> = {}) {
  const sleeps: number[] = [];
  const coinplane = new Coinplane({ apiKey: KEY, baseUrl: BASE, ...options });
  // biome-ignore lint/suspicious/noExplicitAny: reach into the transport to record backoff instead of waiting
  (coinplane as any).transport.sleep = async (ms: number) => {
    sleeps.push(ms);
  };
  // biome-ignore lint/suspicious/noExplicitAny: deterministic jitter
  (coinplane as any).transport.random = () => 0.5;
  return { coinplane, sleeps };
}

const createPaymentBody = {
  amount: "1.00",
  stablecoin: "USDC" as const,
  chain: "base" as const,
  toAddress: "0x52908400098527886E0F7030069857D2E4169EE7",
};

describe("requests", () => {
  it("sends the bearer key and typed inputs; returns the parsed body", async () => {
    let seen: { auth: string | null; body: unknown; url: string } | undefined;
    server.use(
      http.post(`${BASE}/api/v1/wallets`, async ({ request }) => {
        seen = { auth: request.headers.get("authorization"), body: await request.json(), url: request.url };
        return HttpResponse.json(wallet, { status: 201 });
      }),
    );
    const { coinplane } = client();
    const created = await coinplane.wallets.create({ chain: "base", label: "x" });
    expect(created).toEqual(wallet);
    expect(seen).toEqual({ auth: `Bearer ${KEY}`, body: { chain: "base", label: "x" }, url: `${BASE}/api/v1/wallets` });
  });

  it("puts path parameters in order and queries on reads", async () => {
    const urls: string[] = [];
    server.use(
      http.get(`${BASE}/api/metric/:metricId`, ({ request }) => {
        urls.push(request.url);
        return HttpResponse.json({ metricId: "payments.volume" });
      }),
    );
    const { coinplane } = client();
    await coinplane.metrics.retrieve("payments.volume", { range: "30d" });
    expect(urls).toEqual([`${BASE}/api/metric/payments.volume?range=30d`]);
  });
});

describe("Idempotency-Key", () => {
  it("is generated for operations that accept one, reused across retries, never for reads", async () => {
    const keys: Array<string | null> = [];
    let calls = 0;
    server.use(
      http.post(`${BASE}/api/v1/payments`, ({ request }) => {
        keys.push(request.headers.get("idempotency-key"));
        calls++;
        return calls < 3 ? v1Error(503, "service_unavailable") : HttpResponse.json(payment(1), { status: 201 });
      }),
      http.get(`${BASE}/api/v1/payments/:id`, ({ request }) => {
        keys.push(request.headers.get("idempotency-key"));
        return HttpResponse.json(payment(1));
      }),
    );
    const { coinplane } = client();
    await coinplane.payments.create(createPaymentBody);
    expect(keys).toHaveLength(3);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(keys).size).toBe(1);
    await coinplane.payments.retrieve(payment(1).id);
    expect(keys[3]).toBeNull();
  });

  it("differs between two calls, and the caller's own key is never overwritten", async () => {
    const keys: Array<string | null> = [];
    server.use(
      http.post(`${BASE}/api/v2/agent/cards/:cardId/freeze`, ({ request }) => {
        keys.push(request.headers.get("idempotency-key"));
        return HttpResponse.json({ cardId: "card_1" });
      }),
    );
    const { coinplane } = client();
    await coinplane.cards.freeze("card_1", { reason: "a" });
    await coinplane.cards.freeze("card_1", { reason: "a" });
    await coinplane.cards.freeze("card_1", { reason: "a" }, { idempotencyKey: "order-6735" });
    await coinplane.cards.freeze("card_1", { reason: "a" }, { headers: { "Idempotency-Key": "from-header" } });
    expect(keys[0]).not.toBe(keys[1]);
    expect(keys.slice(2)).toEqual(["order-6735", "from-header"]);
  });

  it("is also added by the raw openapi-fetch client", async () => {
    let key: string | null = null;
    server.use(
      http.post(`${BASE}/api/v2/agent/payments/bank-transfer`, ({ request }) => {
        key = request.headers.get("idempotency-key");
        return HttpResponse.json({}, { status: 201 });
      }),
    );
    const { coinplane } = client();
    // The raw client's types ask for the required header; the middleware fills it when it is left out.
    await coinplane.raw.POST("/api/v2/agent/payments/bank-transfer", {
      body: { amount: "1.00", currency: "EUR", source: {}, destination: {}, senderJurisdiction: "DE", receiverJurisdiction: "FR" },
    } as never);
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe("retries", () => {
  it.each([
    ["429 with Retry-After: 2", () => v1Error(429, "rate_limited", { "retry-after": "2" }), [2000]],
    ["503", () => v1Error(503, "rate_limit_unavailable"), [250]],
    ["500", () => v1Error(500, "internal_error"), [250]],
    ["502 problem", () => problem(502, "PROVIDER_EXECUTION_FAILED"), [250]],
    ["409 IDEMPOTENCY_IN_PROGRESS", () => problem(409, "IDEMPOTENCY_IN_PROGRESS"), [250]],
    ["409 idempotency_in_progress (v1)", () => v1Error(409, "idempotency_in_progress"), [250]],
  ])("retries %s, then succeeds", async (_name, failure, expectedSleeps) => {
    let calls = 0;
    server.use(
      http.post(`${BASE}/api/v1/payments`, () => {
        calls++;
        return calls === 1 ? failure() : HttpResponse.json(payment(1), { status: 201 });
      }),
    );
    const { coinplane, sleeps } = client({ retry: { initialDelayMs: 500 } });
    await expect(coinplane.payments.create(createPaymentBody)).resolves.toMatchObject({ id: payment(1).id });
    expect(calls).toBe(2);
    expect(sleeps).toEqual(expectedSleeps);
  });

  it.each([
    ["400", () => v1Error(400, "invalid_request")],
    ["401", () => v1Error(401, "unauthorized")],
    ["404", () => v1Error(404, "not_found")],
    ["409 CUSTODY_STATE_CONFLICT", () => problem(409, "CUSTODY_STATE_CONFLICT")],
    ["422", () => problem(422, "IDEMPOTENCY_KEY_REUSED")],
    ["424", () => problem(424, "PROVIDER_NOT_CONNECTED")],
    ["501", () => problem(501, "NOT_IMPLEMENTED")],
  ])("does not retry %s", async (_name, failure) => {
    let calls = 0;
    server.use(
      http.post(`${BASE}/api/v1/payments`, () => {
        calls++;
        return failure();
      }),
    );
    const { coinplane, sleeps } = client();
    await expect(coinplane.payments.create(createPaymentBody)).rejects.toBeInstanceOf(CoinplaneError);
    expect(calls).toBe(1);
    expect(sleeps).toEqual([]);
  });

  it("backs off exponentially with full jitter, capped, and gives up after maxRetries", async () => {
    let calls = 0;
    server.use(
      http.get(`${BASE}/api/v1/balances`, () => {
        calls++;
        return v1Error(503, "service_unavailable");
      }),
    );
    const { coinplane, sleeps } = client({ maxRetries: 5, retry: { initialDelayMs: 100, maxDelayMs: 1000 } });
    const err = await coinplane.balances.retrieve().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CoinplaneInternalServerError);
    expect(err).toMatchObject({ status: 503, code: "service_unavailable" });
    expect(calls).toBe(6);
    // random() = 0.5: half of min(1000, 100·2^n)
    expect(sleeps).toEqual([50, 100, 200, 400, 500]);
    expect(backoffDelay(3, { initialDelayMs: 100, maxDelayMs: 1000, maxRetryAfterMs: 0 }, () => 0.999)).toBe(799);
    expect(backoffDelay(9, { initialDelayMs: 100, maxDelayMs: 1000, maxRetryAfterMs: 0 }, () => 0.999)).toBe(999);
  });

  it("honours Retry-After as an HTTP date, and surfaces a Retry-After beyond maxRetryAfterMs at once", async () => {
    let calls = 0;
    server.use(
      http.get(`${BASE}/api/v1/balances`, () => {
        calls++;
        return v1Error(429, "rate_limited", { "retry-after": calls === 1 ? new Date(Date.now() + 3000).toUTCString() : "120" });
      }),
    );
    const { coinplane, sleeps } = client({ maxRetries: 3 });
    const err = await coinplane.balances.retrieve().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CoinplaneRateLimitError);
    expect((err as CoinplaneRateLimitError).retryAfterSeconds).toBe(120);
    expect(calls).toBe(2);
    expect(sleeps).toHaveLength(1);
    expect(sleeps[0]).toBeGreaterThan(1000);
    expect(sleeps[0]).toBeLessThanOrEqual(3000);
  });

  it("retries network errors, then throws a CoinplaneConnectionError (never an opaque fetch error)", async () => {
    let calls = 0;
    server.use(
      http.get(`${BASE}/api/v1/balances`, () => {
        calls++;
        return HttpResponse.error();
      }),
    );
    const { coinplane, sleeps } = client({ maxRetries: 2 });
    const err = await coinplane.balances.retrieve().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CoinplaneConnectionError);
    expect(err).toMatchObject({ code: "CONNECTION_ERROR", status: undefined, operationId: "getBalances" });
    expect(calls).toBe(3);
    expect(sleeps).toHaveLength(2);
  });

  it("never repeats a write that carries no Idempotency-Key", async () => {
    let calls = 0;
    server.use(
      http.post(`${BASE}/api/v2/agent/payments/corridor/workflows/dispatch`, () => {
        calls++;
        return problem(500, "INTERNAL_ERROR");
      }),
    );
    const { coinplane } = client();
    await expect(coinplane.corridors.dispatchWorkflows({ headers: { "X-Scheduler-Secret": "s" } })).rejects.toBeInstanceOf(
      CoinplaneInternalServerError,
    );
    expect(calls).toBe(1);
  });

  it("per-call maxRetries overrides the client's", async () => {
    let calls = 0;
    server.use(
      http.get(`${BASE}/api/v1/balances`, () => {
        calls++;
        return v1Error(503, "service_unavailable");
      }),
    );
    const { coinplane } = client({ maxRetries: 4 });
    await expect(coinplane.balances.retrieve({ maxRetries: 0 })).rejects.toBeInstanceOf(CoinplaneInternalServerError);
    expect(calls).toBe(1);
  });
});

describe("errors", () => {
  it("turns a v2 problem into a typed error narrowable by code", async () => {
    server.use(
      http.post(`${BASE}/api/v2/agent/custody/wallets`, () =>
        problem(424, "PROVIDER_NOT_CONNECTED", { errors: [{ path: "/body/x", message: "m" }] }),
      ),
    );
    const { coinplane } = client();
    const err = await coinplane.custody.createWallet({ label: "Ops", chain: "base", type: "mpc" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CoinplaneFailedDependencyError);
    expect(err).toBeInstanceOf(CoinplaneError);
    expect(isCoinplaneError(err, "PROVIDER_NOT_CONNECTED")).toBe(true);
    expect(isCoinplaneError(err, "NOT_FOUND")).toBe(false);
    if (!isCoinplaneError(err)) throw new Error("unreachable");
    // Narrowing on `code` is a type guard too.
    if (err.is("PROVIDER_NOT_CONNECTED")) {
      const code: "PROVIDER_NOT_CONNECTED" = err.code;
      expect(code).toBe("PROVIDER_NOT_CONNECTED");
    }
    expect(err).toMatchObject({
      status: 424,
      code: "PROVIDER_NOT_CONNECTED",
      requestId: "req_problem_1",
      errors: [{ path: "/body/x", message: "m" }],
      title: "PROVIDER_NOT_CONNECTED",
      detail: "detail of PROVIDER_NOT_CONNECTED",
      operationId: "createCustodyWallet",
      message: "detail of PROVIDER_NOT_CONNECTED",
    });
  });

  it("turns a v1 error into the same hierarchy", async () => {
    server.use(http.get(`${BASE}/api/v1/wallets/:id`, () => v1Error(404, "not_found")));
    const { coinplane } = client();
    const err = await coinplane.wallets.retrieve("wal_x").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CoinplaneNotFoundError);
    expect(err).toMatchObject({ status: 404, code: "not_found", requestId: "req_v1_1", message: "message of not_found", errors: [] });
  });

  it("carries COMPLIANCE_BLOCKED reasons", async () => {
    server.use(
      http.post(`${BASE}/api/v2/agent/payments/bank-transfer`, () =>
        problem(403, "COMPLIANCE_BLOCKED", { reasons: [{ rule: "sanctions.address", message: "listed" }] }),
      ),
    );
    const { coinplane } = client();
    const err = await coinplane.bankTransfers
      .create({
        amount: "1.00",
        currency: "EUR",
        source: {},
        destination: {},
        senderJurisdiction: "DE",
        receiverJurisdiction: "KP",
      } as never)
      .catch((e: unknown) => e);
    expect(isCoinplaneError(err, "COMPLIANCE_BLOCKED") && err.reasons).toEqual([{ rule: "sanctions.address", message: "listed" }]);
  });

  it.each([
    [401, CoinplaneAuthenticationError],
    [409, CoinplaneConflictError],
    [500, CoinplaneInternalServerError],
  ])("maps %s to its class", async (status, Cls) => {
    server.use(http.get(`${BASE}/api/v1/balances`, () => v1Error(status, "x")));
    const { coinplane } = client({ maxRetries: 0 });
    await expect(coinplane.balances.retrieve()).rejects.toBeInstanceOf(Cls);
  });

  it("wraps a non-JSON error body", async () => {
    server.use(http.get(`${BASE}/api/v1/balances`, () => new HttpResponse("<html>bad gateway</html>", { status: 400 })));
    const { coinplane } = client();
    const err = await coinplane.balances.retrieve().catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 400, code: "UNEXPECTED_RESPONSE" });
    expect((err as Error).message).toContain("bad gateway");
  });
});

describe("timeouts", () => {
  it("times out an attempt, retries, then throws a CoinplaneTimeoutError", async () => {
    let calls = 0;
    server.use(
      http.get(`${BASE}/api/v1/balances`, async () => {
        calls++;
        await new Promise((r) => setTimeout(r, 500));
        return HttpResponse.json({});
      }),
    );
    const { coinplane } = client({ timeoutMs: 50, maxRetries: 1 });
    const started = Date.now();
    const err = await coinplane.balances.retrieve().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CoinplaneTimeoutError);
    expect(err).toBeInstanceOf(CoinplaneConnectionError);
    expect(err).toMatchObject({ code: "TIMEOUT", status: undefined });
    expect(calls).toBe(2);
    expect(Date.now() - started).toBeLessThan(450);
  });

  it("a per-call timeout overrides the client's, and a slow attempt followed by a fast one succeeds", async () => {
    let calls = 0;
    server.use(
      http.get(`${BASE}/api/v1/balances`, async () => {
        calls++;
        if (calls === 1) await new Promise((r) => setTimeout(r, 300));
        return HttpResponse.json({ ok: true });
      }),
    );
    const { coinplane } = client({ timeoutMs: 10_000 });
    await expect(coinplane.balances.retrieve({ timeoutMs: 30 })).resolves.toEqual({ ok: true });
    expect(calls).toBe(2);
  });

  it("an aborted signal stops at once, without retries", async () => {
    let calls = 0;
    server.use(
      http.get(`${BASE}/api/v1/balances`, async () => {
        calls++;
        await new Promise((r) => setTimeout(r, 300));
        return HttpResponse.json({});
      }),
    );
    const { coinplane } = client();
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    const err = await coinplane.balances.retrieve({ signal: controller.signal }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "REQUEST_ABORTED" });
    expect(calls).toBe(1);
  });
});

describe("pagination", () => {
  it("iterates a v1 limit/offset list across pages", async () => {
    const all = Array.from({ length: 7 }, (_, i) => payment(i + 1));
    const seen: string[] = [];
    server.use(
      http.get(`${BASE}/api/v1/payments`, ({ request }) => {
        const url = new URL(request.url);
        seen.push(url.search);
        const limit = Number(url.searchParams.get("limit") ?? 10);
        const offset = Number(url.searchParams.get("offset") ?? 0);
        return HttpResponse.json({ count: all.length, limit, offset, data: all.slice(offset, offset + limit) });
      }),
    );
    const { coinplane } = client();
    const first = await coinplane.payments.list({ limit: 3 });
    expect(first.data).toHaveLength(3);
    const ids: string[] = [];
    for await (const p of coinplane.payments.list({ limit: 3 })) ids.push(p.id);
    expect(ids).toEqual(all.map((p) => p.id));
    expect(seen).toEqual(["?limit=3", "?limit=3", "?limit=3&offset=3", "?limit=3&offset=6"]);
  });

  it("iterates a v2 cursor list (startingAfter ← nextCursor while hasMore)", async () => {
    const all = Array.from({ length: 5 }, (_, i) => ({ transactionId: `ctx_${i}`, type: "funding" }));
    const cursors: Array<string | null> = [];
    server.use(
      http.get(`${BASE}/api/v2/agent/cards/:cardId/transactions`, ({ request }) => {
        const url = new URL(request.url);
        const after = url.searchParams.get("startingAfter");
        cursors.push(after);
        const start = after ? all.findIndex((t) => t.transactionId === after) + 1 : 0;
        const limit = Number(url.searchParams.get("limit") ?? 10);
        const data = all.slice(start, start + limit);
        const hasMore = start + limit < all.length;
        return HttpResponse.json({ data, hasMore, nextCursor: hasMore ? data[data.length - 1]?.transactionId : null, simulated: true });
      }),
    );
    const { coinplane } = client();
    const ids: string[] = [];
    for await (const t of coinplane.cards.listTransactions("card_1", { limit: 2 })) ids.push(t.transactionId);
    expect(ids).toEqual(all.map((t) => t.transactionId));
    expect(cursors).toEqual([null, "ctx_1", "ctx_3"]);
  });

  it("stops on an empty page", async () => {
    let calls = 0;
    server.use(
      http.get(`${BASE}/api/v1/payments`, () => {
        calls++;
        return HttpResponse.json({ count: 0, limit: 10, offset: 0, data: [] });
      }),
    );
    const { coinplane } = client();
    const items = [];
    for await (const p of coinplane.payments.list()) items.push(p);
    expect(items).toEqual([]);
    expect(calls).toBe(1);
  });
});

describe("hooks", () => {
  it("are called for every attempt, with the key redacted", async () => {
    let calls = 0;
    server.use(
      http.get(`${BASE}/api/v1/balances`, () => {
        calls++;
        return calls === 1 ? v1Error(503, "service_unavailable") : HttpResponse.json({}, { headers: { "x-request-id": "req_ok_1" } });
      }),
    );
    const requests: Array<{ attempt: number; auth: string | undefined }> = [];
    const responses: ResponseHookEvent[] = [];
    const { coinplane } = client({
      hooks: {
        onRequest: (e) => {
          requests.push({ attempt: e.attempt, auth: e.headers.authorization });
        },
        onResponse: (e) => {
          responses.push(e);
        },
      },
    });
    await coinplane.balances.retrieve();
    expect(requests).toEqual([
      { attempt: 0, auth: "Bearer [redacted]" },
      { attempt: 1, auth: "Bearer [redacted]" },
    ]);
    expect(responses.map((r) => [r.attempt, r.status, r.operationId, r.retryInMs !== undefined])).toEqual([
      [0, 503, "getBalances", true],
      [1, 200, "getBalances", false],
    ]);
    expect(responses[1]?.requestId).toBe("req_ok_1");
  });
});

describe("configuration", () => {
  it.each([
    [{ apiKey: "" }, "apiKey (or sessionCookie) is required"],
    [{ baseUrl: "localhost:8080" }, "baseUrl"],
    [{ apiKey: "cp_production_x", environment: "sandbox" as const }, "production key"],
    [{ maxRetries: -1 }, "maxRetries"],
  ])("rejects %j", (options, message) => {
    expect(() => new Coinplane({ apiKey: KEY, baseUrl: BASE, ...options })).toThrow(CoinplaneConfigurationError);
    expect(() => new Coinplane({ apiKey: KEY, baseUrl: BASE, ...options })).toThrow(message);
  });

  it("infers the environment from the key", () => {
    expect(new Coinplane({ apiKey: KEY, baseUrl: BASE }).environment).toBe("sandbox");
  });
});
