// API keys' spending limits through the typed SDK against the partner mock (issue 37): a key created with limits shows
// them (the types carry `spendingLimits`), a mock key given limits is refused past them with 403 FORBIDDEN and the
// `spendingLimit` extension (a CoinplanePermissionDeniedError whose problem says which limit), a replay is not counted
// twice, and a key without limits is not counted at all.
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { Coinplane, CoinplanePermissionDeniedError } from "../../sdk/src/index.ts";
import { createCoinplaneMock, MOCK_ORGANIZATION_ID, mockApiKeys } from "../../sdk/src/mock/index.ts";
import { expectValid, sender, specOp } from "./mock-helpers.ts";

const BASE = "http://spending.coinplane.test";
const LIMITED = `cp_sandbox_${"limited".padEnd(43, "0")}`;
const mock = createCoinplaneMock({
  baseUrl: BASE,
  apiKeys: {
    [LIMITED]: {
      environment: "sandbox",
      organizationId: MOCK_ORGANIZATION_ID,
      scopes: ["payments:write", "wallets:write", "cards:write"],
      spendingLimits: [{ asset: "USDC", perCall: "100", per24h: "150" }],
    },
  },
});
const server = setupServer(...mock.handlers);
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => mock.reset());
afterAll(() => server.close());

const EVM = "0x52908400098527886E0F7030069857D2E4169EE7";
const payment = (amount: string, stablecoin: "USDC" | "USDT" = "USDC") => ({ amount, stablecoin, chain: "base" as const, toAddress: EVM });
const limited = new Coinplane({ apiKey: LIMITED, baseUrl: BASE, maxRetries: 0 });

async function refusal(call: Promise<unknown>): Promise<CoinplanePermissionDeniedError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CoinplanePermissionDeniedError);
  return error as CoinplanePermissionDeniedError;
}

describe("spending limits in the SDK and the mock", () => {
  it("a key created with limits answers them, each limit present (null where left out), in the SDK's types", async () => {
    const owner = new Coinplane({ sessionCookie: "__Host-cp_session=cps_mock", baseUrl: BASE });
    const key = await owner.apiKeys.create({
      environment: "sandbox",
      scopes: ["payments:write"],
      label: "Shopping agent",
      spendingLimits: [
        { asset: "USDC", perCall: "100.50" },
        { asset: "EUR", per24h: "500" },
      ],
    });
    const limits: { asset: string; perCall: string | null; per24h: string | null }[] = key.spendingLimits;
    expect(limits).toEqual([
      { asset: "USDC", perCall: "100.5", per24h: null },
      { asset: "EUR", perCall: null, per24h: "500" },
    ]);
  });

  it("per call: past it, 403 FORBIDDEN (v1 shape) with spendingLimit; within it, the payment", async () => {
    await limited.payments.create(payment("100"));
    const error = await refusal(limited.payments.create(payment("100.01")));
    expect(error.status).toBe(403);
    expect(error.body).toMatchObject({
      code: "forbidden",
      spendingLimit: { asset: "USDC", limit: "perCall", maximum: "100", used: "100", requested: "100.01" },
    });
    const res = await sender(BASE, LIMITED)("POST", "/api/v1/payments", payment("100.01"));
    expectValid(specOp("createPayment"), res);
  });

  it("per 24 h, and an asset the key does not list (maximum 0); a replay is not counted twice", async () => {
    const send = sender(BASE, LIMITED);
    const first = await send("POST", "/api/v1/payments", payment("100"), { "idempotency-key": "spend-1" });
    const replay = await send("POST", "/api/v1/payments", payment("100"), { "idempotency-key": "spend-1" });
    expect(replay.body).toEqual(first.body);
    await limited.payments.create(payment("50"));
    const over = await refusal(limited.payments.create(payment("0.01")));
    expect((over.body as { spendingLimit: unknown }).spendingLimit).toEqual({
      asset: "USDC",
      limit: "per24h",
      maximum: "150",
      used: "150",
      requested: "0.01",
    });
    const other = await refusal(limited.payments.create(payment("1", "USDT")));
    expect((other.body as { spendingLimit: unknown }).spendingLimit).toMatchObject({ asset: "USDT", maximum: "0" });
  });

  it("the agent API answers problem+json with the extension (card funding)", async () => {
    const res = await sender(BASE, LIMITED)(
      "POST",
      "/api/v2/agent/cards/card_9Kd2Lm4Np6Qr8St1Uv3Wx5Yz7/fund",
      { amount: "120", asset: "USDC" },
      { "idempotency-key": "fund-1" },
    );
    expect(res.status).toBe(403);
    expect(res.contentType).toBe("application/problem+json; charset=utf-8");
    expect(res.body).toMatchObject({ code: "FORBIDDEN", spendingLimit: { limit: "perCall", requested: "120" } });
    expectValid(specOp("fundCard"), res);
  });

  it("a key without limits is not counted", async () => {
    const unlimited = new Coinplane({ apiKey: mockApiKeys.sandbox, baseUrl: BASE });
    for (let i = 0; i < 3; i++) await unlimited.payments.create(payment("100000"));
  });
});
