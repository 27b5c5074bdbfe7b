// The description types three request fields "any JSON": providers/invoke `input`, custody/wallets `policy` and
// custody/transfers `amount`. The contract accepts every JSON value there (object, array, string, number, boolean,
// null); what the server then does with each kind is documented on the field and asserted here.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deciderWithKey } from "../helpers/members.ts";
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
let bob: ReturnType<typeof api>;

beforeAll(async () => {
  server = await startTestServer();
  call = api(server.url, (await server.createKey({ scopes: ALL_WRITE_SCOPES, actor: "alice" })).key);
  bob = await deciderWithKey(server, "org_test", (await server.createKey({ scopes: ALL_WRITE_SCOPES, actor: "bob" })).key);
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

  it.each([
    ...ANY_JSON,
    ["an object with members this server does not enforce, at any depth", { tier: "gold", review: { board: { quorum: [2, { of: 3 }] } } }],
    [
      "an enforced rule beside unknown members",
      { allowedAssets: ["USDC"], note: "ops only", limits: [{ asset: "USDC", dailyMinor: "1", owner: "treasury" }] },
    ],
  ] as Array<[string, unknown]>)("accepts %s and returns it as given", async (_name, policy) => {
    const res = await wallet(policy);
    expect(res.status, res.text).toBe(201);
    expect(res.json.policy).toEqual(policy);
  });

  it("is stored with the wallet: activation (read back from the database) returns it as given", async () => {
    const policy = { allowedAssets: ["USDC"], review: [{ by: "board" }, null, 3.5] };
    const requested = await wallet(policy);
    expect((await bob("POST", `/api/v2/agent/approvals/${requested.json.approvalRequestId}/approve`, {})).status).toBe(200);
    const active = await call(
      "POST",
      "/api/v2/agent/custody/wallets",
      { custodyWalletId: requested.json.custodyWalletId, approvalRequestId: requested.json.approvalRequestId },
      idem(),
    );
    expect(active.status, active.text).toBe(200);
    expect(active.json.policy).toEqual(policy);
  });

  it("a rule this server enforces must have its documented form: refused at its path", async () => {
    const refused = await wallet({ allowedAssets: "USDC" });
    expect(refused.status).toBe(400);
    expect(refused.json.code).toBe("VALIDATION_ERROR");
    expect(JSON.stringify(refused.json.errors)).toContain("/body/policy/allowedAssets");
  });
});

describe("custody/transfers amount", () => {
  let walletId: string;
  beforeAll(async () => {
    const res = await call("POST", "/api/v2/agent/custody/wallets", { label: "Payouts", chain: "base", type: "mpc" }, idem());
    walletId = res.json.custodyWalletId;
  });
  // The wallet is still pending approval, so a transfer that passes every input check ends at 409: `amount` is never
  // read, whatever it says (amountMinor is what moves).
  const transfer = (amount: unknown) =>
    call(
      "POST",
      "/api/v2/agent/custody/transfers",
      { walletId, destination: "0x52908400098527886E0F7030069857D2E4169EE7", asset: "USDC", amountMinor: "2500000000", amount },
      idem(),
    );

  it.each([
    ...ANY_JSON,
    ["a decimal string that contradicts amountMinor", "1.00"],
    ["a negative amount", "-1"],
    ["zero", 0],
    ["a string that is no amount", "lots"],
  ] as Array<[string, unknown]>)("accepts %s without reading it", async (_name, amount) => {
    const res = await transfer(amount);
    expect(res.status, res.text).toBe(409);
    expect(res.json.code).toBe("CUSTODY_STATE_CONFLICT");
  });
});

describe("custody/transfers amount on an active wallet", () => {
  let walletId: string;
  beforeAll(async () => {
    const requested = await call("POST", "/api/v2/agent/custody/wallets", { label: "Echo", chain: "base", type: "mpc" }, idem());
    expect((await bob("POST", `/api/v2/agent/approvals/${requested.json.approvalRequestId}/approve`, {})).status).toBe(200);
    const active = await call(
      "POST",
      "/api/v2/agent/custody/wallets",
      { custodyWalletId: requested.json.custodyWalletId, approvalRequestId: requested.json.approvalRequestId },
      idem(),
    );
    expect(active.status, active.text).toBe(200);
    walletId = active.json.custodyWalletId;
  });

  it.each([...ANY_JSON, ["a decimal string that contradicts amountMinor", "1.00"]] as Array<[string, unknown]>)(
    "stores %s and returns it as given, while amountMinor is what moves",
    async (_name, amount) => {
      const body = {
        walletId,
        destination: "0x52908400098527886E0F7030069857D2E4169EE7",
        asset: "USDC",
        amountMinor: "2500000000",
        amount,
      };
      const created = await call("POST", "/api/v2/agent/custody/transfers", body, idem());
      expect(created.status, created.text).toBe(201);
      expect(created.json.amount).toEqual(amount);
      expect(created.json.amountMinor).toBe("2500000000");
      const read = await call("POST", "/api/v2/agent/custody/transfers/status", { custodyTransferId: created.json.custodyTransferId });
      expect(read.status, read.text).toBe(200);
      expect(read.json.amount).toEqual(amount);
    },
  );

  it("without an amount, returns amountMinor as a decimal in units of the asset", async () => {
    const body = { walletId, destination: "0x52908400098527886E0F7030069857D2E4169EE7", asset: "USDC", amountMinor: "2500000000" };
    const created = await call("POST", "/api/v2/agent/custody/transfers", body, idem());
    expect(created.status, created.text).toBe(201);
    expect(created.json.amount).toBe("2500.000000");
  });
});
