// What a method call gives besides its data (msw, onUnhandledRequest: "error"): `withResponse()` on every method — list
// methods included — with status, headers, request id and Idempotent-Replayed, sharing the one request with the awaited
// data; `toArray({ limit })` across pages with its default cap; the error classes (API error vs. no response, per
// status, the deprecated names).
import { HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { errorClassFor } from "../../sdk/src/error-response.ts";
import {
  AbortError,
  ApiPromise,
  Coinplane,
  CoinplaneAbortError,
  CoinplaneApiError,
  CoinplaneConnectionError,
  CoinplaneError,
  CoinplaneNotFoundError,
  CoinplaneRateLimitError,
  CoinplaneTimeoutError,
  DEFAULT_TO_ARRAY_LIMIT,
  isCoinplaneError,
  NotFoundError,
  PagePromise,
  RateLimitError,
  TimeoutError,
} from "../../sdk/src/index.ts";

const BASE = "http://api.coinplane.test";
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const client = (maxRetries = 0) => new Coinplane({ apiKey: "cp_sandbox_test", baseUrl: BASE, maxRetries, retry: { initialDelayMs: 1 } });
const wallet = { id: "wal_1", address: "0x52908400098527886E0F7030069857D2E4169EE7", chain: "base", label: null, createdAt: "x" };
const payment = (i: number) => ({ id: `pay_${i}`, amount: `${i}.00` });

/** A v1 limit/offset list of `total` payments; records each request's query. */
function paymentsList(total: number, seen: string[] = []) {
  const all = Array.from({ length: total }, (_, i) => payment(i + 1));
  server.use(
    http.get(`${BASE}/api/v1/payments`, ({ request }) => {
      const url = new URL(request.url);
      seen.push(url.search);
      const limit = Number(url.searchParams.get("limit") ?? 10);
      const offset = Number(url.searchParams.get("offset") ?? 0);
      const data = all.slice(offset, offset + limit);
      return HttpResponse.json({ count: total, limit, offset, data }, { headers: { "x-request-id": `req_page_${offset}` } });
    }),
  );
  return { all, seen };
}

/** Collects unhandled rejections while `run` runs (and a turn after), to prove none escape. */
async function unhandledRejections(run: () => Promise<unknown>): Promise<unknown[]> {
  const seen: unknown[] = [];
  const listener = (reason: unknown) => seen.push(reason);
  process.on("unhandledRejection", listener);
  try {
    await run();
    await new Promise((resolve) => setTimeout(resolve, 20));
  } finally {
    process.off("unhandledRejection", listener);
  }
  return seen;
}

describe("withResponse()", () => {
  it("gives the data with status, headers and request id; the awaited data and it share one request", async () => {
    let calls = 0;
    server.use(
      http.post(`${BASE}/api/v1/wallets`, () => {
        calls++;
        return HttpResponse.json(wallet, { status: 201, headers: { "x-request-id": "req_create_1", "x-ratelimit-remaining": "599" } });
      }),
    );
    const call = client().wallets.create({ chain: "base" });
    expect(call).toBeInstanceOf(ApiPromise);
    expect(call).toBeInstanceOf(Promise);
    const [data, result] = await Promise.all([call, call.withResponse()]);
    expect(data).toEqual(wallet);
    expect(result.data).toEqual(wallet);
    expect(result).toMatchObject({ status: 201, requestId: "req_create_1", idempotentReplayed: false });
    expect(result.headers.get("x-ratelimit-remaining")).toBe("599");
    expect(result.response).toBeInstanceOf(Response);
    expect(result.response.status).toBe(201);
    expect(calls).toBe(1);
  });

  it("tells a replayed answer (Idempotent-Replayed: true) from a fresh one", async () => {
    const seenKeys = new Set<string>();
    server.use(
      http.post(`${BASE}/api/v1/payments`, ({ request }) => {
        const key = request.headers.get("idempotency-key") ?? "";
        const replayed = seenKeys.has(key);
        seenKeys.add(key);
        return HttpResponse.json(payment(1), { status: 201, headers: replayed ? { "idempotent-replayed": "true" } : {} });
      }),
    );
    const coinplane = client();
    const body = { amount: "1.00", stablecoin: "USDC" as const, chain: "base" as const, toAddress: wallet.address };
    const first = await coinplane.payments.create(body, { idempotencyKey: "order-1" }).withResponse();
    const again = await coinplane.payments.create(body, { idempotencyKey: "order-1" }).withResponse();
    expect([first.idempotentReplayed, again.idempotentReplayed]).toEqual([false, true]);
  });

  it("works on list methods: the first page's answer, and iterating afterwards does not fetch it again", async () => {
    const { all, seen } = paymentsList(5);
    const list = client().payments.list({ limit: 2 });
    expect(list).toBeInstanceOf(PagePromise);
    const first = await list.withResponse();
    expect(first.data.data).toEqual(all.slice(0, 2));
    expect(first).toMatchObject({ status: 200, requestId: "req_page_0" });
    const ids: string[] = [];
    for await (const p of list) ids.push(p.id);
    expect(ids).toEqual(all.map((p) => p.id));
    expect(seen).toEqual(["?limit=2", "?limit=2&offset=2", "?limit=2&offset=4"]);
  });

  it("works through request(operationId), and for an answer without a body (204)", async () => {
    server.use(
      http.delete(
        `${BASE}/api/v2/agent/webhook-endpoints/:endpointId`,
        () => new HttpResponse(null, { status: 204, headers: { "x-request-id": "req_del" } }),
      ),
    );
    const result = await client().request("deleteWebhookEndpoint", "we_1").withResponse();
    expect(result).toMatchObject({ status: 204, requestId: "req_del", data: undefined });
  });

  it("rejects with the call's typed error, and using only withResponse() leaves no unhandled rejection", async () => {
    server.use(
      http.get(`${BASE}/api/v1/wallets/:id`, () =>
        HttpResponse.json({ error: "no such wallet", code: "not_found", requestId: "req_404" }, { status: 404 }),
      ),
      http.get(`${BASE}/api/v1/payments`, () =>
        HttpResponse.json({ error: "down", code: "internal_error", requestId: "r" }, { status: 500 }),
      ),
    );
    const unhandled = await unhandledRejections(async () => {
      const err = await client()
        .wallets.retrieve("wal_x")
        .withResponse()
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(CoinplaneNotFoundError);
      const listErr = await client()
        .payments.list()
        .withResponse()
        .catch((e: unknown) => e);
      expect(listErr).toMatchObject({ status: 500, code: "internal_error" });
    });
    expect(unhandled).toEqual([]);
  });

  it("then/catch/finally behave as a promise's", async () => {
    server.use(http.get(`${BASE}/api/v1/balances`, () => HttpResponse.json({ totalUSD: "1.00" })));
    const order: string[] = [];
    const total = await client()
      .balances.retrieve()
      .then((b) => b.totalUSD)
      .finally(() => order.push("finally"));
    expect(total).toBe("1.00");
    expect(order).toEqual(["finally"]);
    server.use(
      http.get(`${BASE}/api/v1/balances`, () => HttpResponse.json({ error: "x", code: "internal_error", requestId: "r" }, { status: 500 })),
    );
    await expect(
      client()
        .balances.retrieve()
        .catch((e: CoinplaneError) => e.status),
    ).resolves.toBe(500);
  });
});

describe("toArray()", () => {
  it("collects across pages up to the limit, fetching no page beyond it", async () => {
    const { all, seen } = paymentsList(7);
    const items = await client().payments.list({ limit: 3 }).toArray({ limit: 4 });
    expect(items).toEqual(all.slice(0, 4));
    expect(seen).toEqual(["?limit=3", "?limit=3&offset=3"]);
  });

  it("stops at the end of the list when the limit is larger", async () => {
    const { all, seen } = paymentsList(5);
    await expect(client().payments.list({ limit: 2 }).toArray({ limit: 100 })).resolves.toEqual(all);
    expect(seen).toHaveLength(3);
  });

  it(`caps at ${DEFAULT_TO_ARRAY_LIMIT} items without a limit`, async () => {
    const { all, seen } = paymentsList(2500);
    const items = await client().payments.list({ limit: 100 }).toArray();
    expect(DEFAULT_TO_ARRAY_LIMIT).toBe(1000);
    expect(items).toEqual(all.slice(0, 1000));
    expect(seen).toHaveLength(10);
  });

  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])("rejects limit %s", async (limit) => {
    paymentsList(1);
    await expect(client().payments.list().toArray({ limit })).rejects.toThrow(RangeError);
  });
});

describe("error classes", () => {
  it("an HTTP error is a CoinplaneApiError of its status's class, with the body as `problem`", async () => {
    const body = {
      type: "https://docs.coinplane.dev/errors/not_found",
      title: "Not found",
      status: 404,
      code: "NOT_FOUND",
      requestId: "req_nf",
    };
    server.use(
      http.get(`${BASE}/api/v2/agent/cards/:cardId`, () =>
        HttpResponse.json(body, { status: 404, headers: { "content-type": "application/problem+json", "x-request-id": "req_nf" } }),
      ),
    );
    const err = await client()
      .cards.retrieve("card_x")
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CoinplaneNotFoundError);
    expect(err).toBeInstanceOf(CoinplaneApiError);
    expect(err).toBeInstanceOf(CoinplaneError);
    expect(err).not.toBeInstanceOf(CoinplaneConnectionError);
    expect(err).toMatchObject({ name: "CoinplaneNotFoundError", status: 404, code: "NOT_FOUND", requestId: "req_nf", problem: body });
    expect((err as CoinplaneApiError).headers.get("x-request-id")).toBe("req_nf");
    expect(isCoinplaneError(err, "NOT_FOUND")).toBe(true);
  });

  it("429 is a CoinplaneRateLimitError with retryAfter in seconds", async () => {
    server.use(
      http.get(`${BASE}/api/v1/balances`, () =>
        HttpResponse.json(
          { error: "slow down", code: "rate_limited", requestId: "req_429" },
          { status: 429, headers: { "retry-after": "7" } },
        ),
      ),
    );
    const err = await client(0)
      .balances.retrieve()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CoinplaneRateLimitError);
    expect(err).toMatchObject({ status: 429, retryAfter: 7, retryAfterSeconds: 7, code: "rate_limited" });
  });

  it("a status without a class of its own is a plain CoinplaneApiError; a body that is not an error shape is no `problem`", async () => {
    server.use(http.get(`${BASE}/api/v1/balances`, () => new HttpResponse("<html>gone</html>", { status: 410 })));
    const err = await client()
      .balances.retrieve()
      .catch((e: unknown) => e);
    expect((err as object).constructor).toBe(CoinplaneApiError);
    expect(err).toMatchObject({ status: 410, code: "UNEXPECTED_RESPONSE", problem: undefined, body: "<html>gone</html>" });
  });

  it.each([
    [400, "CoinplaneBadRequestError"],
    [401, "CoinplaneAuthenticationError"],
    [403, "CoinplanePermissionDeniedError"],
    [404, "CoinplaneNotFoundError"],
    [409, "CoinplaneConflictError"],
    [422, "CoinplaneUnprocessableEntityError"],
    [424, "CoinplaneFailedDependencyError"],
    [429, "CoinplaneRateLimitError"],
    [500, "CoinplaneInternalServerError"],
    [503, "CoinplaneInternalServerError"],
    [418, "CoinplaneApiError"],
  ])("status %s → %s", (status, name) => {
    const Cls = errorClassFor(status);
    expect(Cls.name).toBe(name);
    expect(Cls === CoinplaneApiError || Cls.prototype instanceof CoinplaneApiError).toBe(true);
  });

  it("no response: a timeout and an abort are connection errors, told apart by class", async () => {
    server.use(
      http.get(`${BASE}/api/v1/balances`, async () => {
        await new Promise((r) => setTimeout(r, 300));
        return HttpResponse.json({});
      }),
    );
    const coinplane = new Coinplane({ apiKey: "cp_sandbox_test", baseUrl: BASE, maxRetries: 0, timeoutMs: 30 });
    const timeout = await coinplane.balances.retrieve().catch((e: unknown) => e);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 10);
    const aborted = await coinplane.balances.retrieve({ signal: controller.signal, timeoutMs: 5000 }).catch((e: unknown) => e);
    expect(timeout).toBeInstanceOf(CoinplaneTimeoutError);
    expect(timeout).not.toBeInstanceOf(CoinplaneAbortError);
    expect(aborted).toBeInstanceOf(CoinplaneAbortError);
    expect(aborted).not.toBeInstanceOf(CoinplaneTimeoutError);
    for (const err of [timeout, aborted]) {
      expect(err).toBeInstanceOf(CoinplaneConnectionError);
      expect(err).not.toBeInstanceOf(CoinplaneApiError);
      expect(err).toMatchObject({ status: undefined, headers: undefined });
    }
    expect([(timeout as CoinplaneError).code, (aborted as CoinplaneError).code]).toEqual(["TIMEOUT", "REQUEST_ABORTED"]);
  });

  it("the names before the prefix are the same classes (deprecated aliases)", () => {
    expect(NotFoundError).toBe(CoinplaneNotFoundError);
    expect(RateLimitError).toBe(CoinplaneRateLimitError);
    expect(TimeoutError).toBe(CoinplaneTimeoutError);
    expect(AbortError).toBe(CoinplaneAbortError);
  });
});
