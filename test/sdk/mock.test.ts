// The partner mock (@coinplane/sdk/mock): every response it gives — for every operation of the spec, every documented
// success example and every documented error — validates against the spec (ajv over the bundled spec); its in-memory
// state, idempotency and error-on-request headers behave as documented; the standalone server answers the same.
// (mock-rehearsal.test.ts: keys, validation, read-back of every created resource, 404 messages, the FX quote;
// contract-server-and-mock.test.ts: the same scenarios against the real server and the mock.)
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { mockData } from "../../sdk/src/generated/mock-data.ts";
import { Coinplane, isCoinplaneError } from "../../sdk/src/index.ts";
import { createCoinplaneMock, type MockServer, mockApiKeys, startMockServer } from "../../sdk/src/mock/index.ts";
import type { SpecOperation } from "../helpers/spec-requests.ts";
import { expectValid, mockExampleRequest, sender, specOps, validator } from "./mock-helpers.ts";

const BASE = "http://mock.coinplane.test";
const KEY = mockApiKeys.sandbox;
const mock = createCoinplaneMock({ baseUrl: BASE });
const server = setupServer(...mock.handlers);
const send = sender(BASE);

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => mock.reset());
afterAll(() => server.close());

async function sendExample(op: SpecOperation, headers: Record<string, string> = {}) {
  const req = mockExampleRequest(op);
  const auth: Record<string, string> =
    op.operation.security === "schedulerSecret"
      ? { "x-scheduler-secret": "secret" }
      : op.operation.security === "session"
        ? { cookie: "__Host-cp_session=cps_mock" }
        : {};
  return send(req.method, req.path, req.body, { ...req.headers, ...auth, ...headers });
}

const mocked = mockData.operations.map((m) => [m.operationId, m, specOps.get(m.operationId) as SpecOperation] as const);

describe("the mock covers the spec", () => {
  it("serves every operation of the spec except the admin API", () => {
    const expected = [...specOps.values()]
      .filter((op) => op.operation.surface !== "admin" && !op.operation.operationId.startsWith("placeholder_"))
      .map((op) => op.operation.operationId)
      .sort();
    expect(mockData.operations.map((o) => o.operationId).sort()).toEqual(expected);
  });
});

describe.each(mocked)("%s", (_id, spec, op) => {
  const successes = spec.responses.filter((r) => r.status < 300);
  const errors = spec.responses.filter((r) => r.status >= 400);

  it("starts from spec examples that validate (an invalid example here is a spec bug, not a mock bug)", () => {
    for (const r of spec.responses) {
      for (const e of r.examples) {
        const problems = validator.check(spec.method, spec.path, r.status, r.contentType, mockData.values[e.value]);
        expect(problems, `example ${e.name} of ${r.status}`).toEqual([]);
      }
    }
  });

  it("answers a valid request with a documented success that validates", async () => {
    const res = await sendExample(op);
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
    expect(successes.map((r) => r.status)).toContain(res.status);
    expectValid(op, res);
  });

  const named = successes.flatMap((r) => r.examples.map((e) => e.name));
  it.each(named.length ? named : ["(none)"])("X-Mock-Example %s validates", async (name) => {
    const res = await sendExample(op, name === "(none)" ? {} : { "x-mock-example": name });
    expectValid(op, res);
  });

  const codes = errors.flatMap((r) => r.examples.filter((e) => e.code).map((e) => [r.status, e.code as string] as const));
  // An operation without documented error codes (getHealth, getReadiness) gets no row: a placeholder row would pass
  // without asserting anything.
  if (codes.length)
    it.each(codes)("X-Mock-Error → %s %s validates", async (status, code) => {
      const res = await sendExample(op, { "x-mock-error": code });
      expect(res.status).toBe(status);
      expect(res.body.code).toBe(code);
      expectValid(op, res);
    });

  it.each(errors.map((r) => r.status))("X-Mock-Status %s validates", async (status) => {
    const res = await sendExample(op, { "x-mock-status": String(status) });
    expect(res.status).toBe(status);
    expectValid(op, res);
  });

  if (spec.security === "session") {
    it("answers 401 without a session cookie", async () => {
      const req = mockExampleRequest(op);
      const res = await send(req.method, req.path, req.body, req.headers);
      expect(res.status).toBe(401);
      expectValid(op, res);
    });
  }

  if (spec.security === "apiKey") {
    it("answers 401 without a key", async () => {
      const req = mockExampleRequest(op);
      const res = await send(req.method, req.path, req.body, { ...req.headers, authorization: "" });
      expect(res.status).toBe(401);
      expectValid(op, res);
    });
  }

  if (spec.idempotency === "required") {
    it("answers 400 IDEMPOTENCY_KEY_REQUIRED without a key, replays the same request, 422 when the key was used for another", async () => {
      const req = mockExampleRequest(op);
      const missing = await send(req.method, req.path, req.body);
      expect(missing.status).toBe(400);
      expect(missing.body.code).toBe("IDEMPOTENCY_KEY_REQUIRED");
      expect(missing.body.errors).toBeUndefined();
      expectValid(op, missing);
      const first = await send(req.method, req.path, req.body, { "idempotency-key": "k-1" });
      expect(first.status).toBeLessThan(300);
      const replay = await send(req.method, req.path, req.body, { "idempotency-key": "k-1" });
      expect(replay.status).toBe(first.status);
      expect(replay.body).toEqual(first.body);
      expect(replay.headers.get("idempotent-replayed")).toBe("true");
      // The same key first used for another request (another path, method and body): 422 in this operation's shape.
      const other = await send("POST", "/api/v1/wallets", { chain: "base" }, { "idempotency-key": "k-2" });
      expect(other.status).toBe(201);
      const reused = await send(req.method, req.path, req.body, { "idempotency-key": "k-2" });
      expect(reused.status).toBe(422);
      expect(reused.body.code).toMatch(/^idempotency_key_reused$/i);
      expectValid(op, reused);
    });
  }
});

describe("in-memory state", () => {
  const op = (id: string) => specOps.get(id) as SpecOperation;

  it("returns created wallets and payments from later reads and lists, newest first, paginated", async () => {
    const wallet = await send("POST", "/api/v1/wallets", { chain: "polygon", label: "Mine" });
    expect(wallet.status).toBe(201);
    expect(wallet.body).toMatchObject({ chain: "polygon", label: "Mine" });
    expectValid(op("createWallet"), wallet);
    const read = await send("GET", `/api/v1/wallets/${wallet.body.id}`);
    expect(read.body).toEqual(wallet.body);
    const ids: string[] = [];
    for (const amount of ["1.00", "2.00", "3.00"]) {
      const p = await send("POST", "/api/v1/payments", {
        amount,
        stablecoin: "USDC",
        chain: "base",
        toAddress: "0x52908400098527886E0F7030069857D2E4169EE7",
      });
      expect(p.body.amount).toBe(amount);
      ids.push(p.body.id);
    }
    const page = await send("GET", "/api/v1/payments?limit=2&offset=1");
    expectValid(op("listPayments"), page);
    expect(page.body).toMatchObject({ count: 3, limit: 2, offset: 1 });
    expect(page.body.data.map((p: { id: string }) => p.id)).toEqual([ids[1], ids[0]]);
    expect((await send("GET", "/api/v1/payments/pay_unknownunknownunknown1")).status).toBe(404);
  });

  it("answers 404 for an unknown card but serves the spec's example id", async () => {
    const example = mockData.schemas.Card?.exampleIds?.[0] as string;
    expect((await send("GET", `/api/v2/agent/cards/${example}`)).status).toBe(200);
    const missing = await send("GET", "/api/v2/agent/cards/card_doesnotexist");
    expect(missing.status).toBe(404);
    expectValid(op("getCard"), missing);
  });

  it("runs a card's life cycle: issue, read, freeze (the stored card changes), transactions", async () => {
    const issued = await send(
      "POST",
      "/api/v2/agent/cards/issue",
      { programmeId: "cprg_6Hd2Kq8Wn3Tb5Lz9Rx1Vf", cardholderId: "chd_4Kz8Wq2Nm6Rt1Vb3Hx9Lp" },
      { "idempotency-key": "i-1" },
    );
    expect(issued.status).toBe(201);
    expectValid(op("issueCard"), issued);
    const cardId = issued.body.cardId as string;
    expect(issued.body.cardholderId).toBe("chd_4Kz8Wq2Nm6Rt1Vb3Hx9Lp");
    expect((await send("GET", `/api/v2/agent/cards/${cardId}`)).body).toEqual(issued.body);
    const frozen = await send("POST", `/api/v2/agent/cards/${cardId}/freeze`, { reason: "lost" }, { "idempotency-key": "f-1" });
    expectValid(op("freezeCard"), frozen);
    expect(frozen.body.cardId).toBe(cardId);
    const after = await send("GET", `/api/v2/agent/cards/${cardId}`);
    expect(after.body).toEqual(frozen.body);
    const txs = await send("GET", `/api/v2/agent/cards/${cardId}/transactions`);
    expectValid(op("listCardTransactions"), txs);
  });

  it("answers 403 to a production key on the sandbox API", async () => {
    const res = await send("GET", "/api/v1/wallets", undefined, { authorization: `Bearer ${mockApiKeys.production}` });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe("This endpoint is sandbox-only; use a sandbox API key");
    expectValid(op("listWallets"), res);
  });
});

describe("the SDK against the mock", () => {
  it("creates, iterates and narrows errors", async () => {
    const coinplane = new Coinplane({ apiKey: KEY, baseUrl: BASE, maxRetries: 0 });
    for (let i = 0; i < 5; i++)
      await coinplane.payments.create({
        amount: `${i + 1}.00`,
        stablecoin: "USDC",
        chain: "base",
        toAddress: "0x52908400098527886E0F7030069857D2E4169EE7",
      });
    const amounts: string[] = [];
    for await (const p of coinplane.payments.list({ limit: 2 })) amounts.push(p.amount);
    expect(amounts).toEqual(["5.00", "4.00", "3.00", "2.00", "1.00"]);
    const err = await coinplane.custody
      .createWallet({ label: "Ops", chain: "base", type: "mpc" }, { headers: { "X-Mock-Error": "PROVIDER_NOT_CONNECTED" } })
      .catch((e: unknown) => e);
    expect(isCoinplaneError(err, "PROVIDER_NOT_CONNECTED")).toBe(true);
  });
});

describe("the standalone mock server", () => {
  let standalone: MockServer;
  beforeAll(async () => {
    server.close();
    standalone = await startMockServer({ port: 0 });
  });
  afterAll(async () => {
    await standalone?.close();
    server.listen({ onUnhandledRequest: "error" });
  });

  it("answers like the msw handlers, over HTTP", async () => {
    const coinplane = new Coinplane({ apiKey: KEY, baseUrl: standalone.url, maxRetries: 0 });
    const wallet = await coinplane.wallets.create({ chain: "base", label: "Standalone" });
    expect(await coinplane.wallets.retrieve(wallet.id)).toEqual(wallet);
    const res = await fetch(`${standalone.url}/api/v2/agent/custody/wallets`, {
      method: "POST",
      headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json", "idempotency-key": "x", "x-mock-status": "424" },
      body: "{}",
    });
    expect(res.status).toBe(424);
    expect(res.headers.get("content-type")).toBe("application/problem+json; charset=utf-8");
    const body = await res.json();
    expect(validator.check("POST", "/api/v2/agent/custody/wallets", 424, "application/problem+json", body)).toEqual([]);
    const unknown = await fetch(`${standalone.url}/api/v1/nowhere`, { headers: { authorization: `Bearer ${KEY}` } });
    expect(unknown.status).toBe(404);
  });
});

// Request examples are copy-paste ready (docs/design.md): they carry no organizationId, and the mock's test keys take a
// body without one, as the server takes it from any organization's key.
describe("request examples without organizationId", () => {
  it("every request example of the spec, sent as is with the mock's sandbox key, is never 403 FORBIDDEN", async () => {
    let sent = 0;
    const refused: string[] = [];
    for (const [, , op] of mocked) {
      if (op.operation.security !== "apiKey") continue;
      const media = (op.raw.requestBody as { content?: Record<string, { examples?: Record<string, { value?: unknown }> }> } | undefined)
        ?.content?.["application/json"];
      for (const [name, example] of Object.entries(media?.examples ?? {})) {
        expect(example.value, `${op.operation.operationId} ${name}`).not.toHaveProperty("organizationId");
        const req = mockExampleRequest(op);
        const res = await send(req.method, req.path, example.value, req.headers);
        sent++;
        if (res.body?.code === "FORBIDDEN" || res.body?.code === "forbidden")
          refused.push(`${op.operation.operationId} ${name}: ${JSON.stringify(res.body)}`);
        mock.reset();
      }
    }
    expect(refused).toEqual([]);
    expect(sent).toBeGreaterThan(30);
  });
});
