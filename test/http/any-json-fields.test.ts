// The description types three request fields "any JSON": providers/invoke `input`, custody/wallets `policy` and
// custody/transfers `amount`. The contract accepts every JSON value there (object, array, string, number, boolean,
// null); what the server then does with each kind is documented on the field and asserted here.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, startTestServer, type TestServer } from "../helpers/test-server.ts";
import { ALL_WRITE_SCOPES, connect, idem } from "../helpers/v2.ts";

const ANY_JSON: Array<[string, unknown]> = [
  ["an object", { tier: "gold" }],
  ["an array", ["a", 1]],
  ["a string", "strict"],
  ["a number", 42.5],
  ["a boolean", true],
  ["null", null],
];

let server: TestServer;
let call: ReturnType<typeof api>;

beforeAll(async () => {
  server = await startTestServer();
  call = api(server.url, (await server.createKey({ scopes: ALL_WRITE_SCOPES, actor: "alice" })).key);
  await connect(server, { category: "fx" });
  await connect(server, { category: "custody" });
});
afterAll(() => server?.close());

describe("providers/invoke input", () => {
  it.each(ANY_JSON)("accepts %s: the body schema refuses nothing, the operation's own input schema decides", async (_name, input) => {
    const res = await call("POST", "/api/v2/agent/providers/invoke", {
      providerSlug: "simulator",
      category: "fx",
      operation: "quote",
      input,
    });
    expect(res.status).toBe(400);
    expect(res.json.code).toBe("INVALID_INPUT");
  });
});

describe("custody/wallets policy", () => {
  const wallet = (policy: unknown) =>
    call("POST", "/api/v2/agent/custody/wallets", { label: "Ops", chain: "base", type: "mpc", policy }, idem());

  it.each(ANY_JSON.filter(([name]) => name !== "an object"))("accepts %s, kept as given and setting no rule", async (_name, policy) => {
    const res = await wallet(policy);
    expect(res.status, res.text).toBe(201);
    expect(res.json.policy).toEqual(policy);
  });

  it("an object sets rules: a documented one is kept, a rule this server does not enforce is refused at its path", async () => {
    const kept = await wallet({ allowedAssets: ["USDC"] });
    expect(kept.status, kept.text).toBe(201);
    const refused = await wallet({ tier: "gold" });
    expect(refused.status).toBe(400);
    expect(refused.json.code).toBe("VALIDATION_ERROR");
    expect(JSON.stringify(refused.json.errors)).toContain("/body/policy");
  });
});

describe("custody/transfers amount", () => {
  let walletId: string;
  beforeAll(async () => {
    const res = await call("POST", "/api/v2/agent/custody/wallets", { label: "Payouts", chain: "base", type: "mpc" }, idem());
    walletId = res.json.custodyWalletId;
  });
  // The wallet is still pending approval, so a transfer that passes every input check ends at 409; one whose `amount`
  // contradicts `amountMinor` is refused at /body/amount first.
  const transfer = (amount: unknown) =>
    call(
      "POST",
      "/api/v2/agent/custody/transfers",
      { walletId, destination: "0x52908400098527886E0F7030069857D2E4169EE7", asset: "USDC", amountMinor: "2500000000", amount },
      idem(),
    );

  it.each([
    ["a matching decimal string", "2500.00"],
    ["a matching number", 2500],
    ["null (not checked)", null],
    ["a boolean (not checked)", true],
    ["an object (not checked)", { value: "1" }],
    ["an array (not checked)", []],
  ] as Array<[string, unknown]>)("accepts %s", async (_name, amount) => {
    const res = await transfer(amount);
    expect(res.status, res.text).toBe(409);
    expect(res.json.code).toBe("CUSTODY_STATE_CONFLICT");
  });

  it.each([
    ["a string", "1.00"],
    ["a number", 1],
    ["a string that is no amount", "lots"],
  ] as Array<[string, unknown]>)("refuses %s that contradicts amountMinor, at /body/amount", async (_name, amount) => {
    const res = await transfer(amount);
    expect(res.status).toBe(400);
    expect(res.json.errors).toEqual([{ path: "/body/amount", message: expect.stringContaining("must equal amountMinor") }]);
  });
});
