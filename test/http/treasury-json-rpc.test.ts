// The JSON-RPC chain reader (chain_read provider `json_rpc`, viem) against an msw-mocked node: total supply for treasury
// status and stress tests on a configured chain, pinned to one block; a node that errors, answers JSON-RPC errors or
// times out → 503 SOURCE_NOT_AVAILABLE; an address without a token → 404 / 422.
import { delay, HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import { decodeFunctionData, encodeFunctionResult, erc20Abi, type Hex } from "viem";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { api, startTestServer, type TestServer } from "../helpers/test-server.ts";
import { connect } from "../helpers/v2.ts";

const RPC = "https://rpc.node.example";
const TOKEN = "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48";
const NO_CODE = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
const REVERTS = "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB";
const BLOCK = 21_000_000;
const SUPPLY = 52_345_678_901_234_567n;

interface RpcCall {
  method: string;
  params: unknown[];
}
const calls: RpcCall[] = [];

function answer(call: RpcCall & { id: number }) {
  const ok = (result: unknown) => ({ jsonrpc: "2.0", id: call.id, result });
  switch (call.method) {
    case "eth_chainId":
      return ok("0x1");
    case "eth_blockNumber":
      return ok(`0x${BLOCK.toString(16)}`);
    case "eth_getCode": {
      const [address] = call.params as [string];
      return ok(address.toLowerCase() === NO_CODE.toLowerCase() ? "0x" : "0x6080604052");
    }
    case "eth_call": {
      const [{ to, data }] = call.params as [{ to: string; data: Hex }];
      if (to.toLowerCase() === REVERTS.toLowerCase())
        return { jsonrpc: "2.0", id: call.id, error: { code: 3, message: "execution reverted", data: "0x" } };
      const { functionName } = decodeFunctionData({ abi: erc20Abi, data });
      const values: Record<string, unknown> = { totalSupply: SUPPLY, decimals: 6, symbol: "USDC", balanceOf: 0n };
      return ok(encodeFunctionResult({ abi: erc20Abi, functionName, result: values[functionName] } as never));
    }
    default:
      return { jsonrpc: "2.0", id: call.id, error: { code: -32601, message: "method not found" } };
  }
}

const node = setupServer(
  http.post(`${RPC}/ok`, async ({ request }) => {
    const call = (await request.json()) as RpcCall & { id: number };
    calls.push(call);
    return HttpResponse.json(answer(call));
  }),
  http.post(`${RPC}/down`, () => new HttpResponse("upstream unavailable", { status: 502 })),
  http.post(`${RPC}/rpc-error`, async ({ request }) => {
    const { id } = (await request.json()) as { id: number };
    return HttpResponse.json({ jsonrpc: "2.0", id, error: { code: -32603, message: "internal error" } });
  }),
  http.post(`${RPC}/slow`, async ({ request }) => {
    await delay(3_000);
    return HttpResponse.json(answer((await request.json()) as RpcCall & { id: number }));
  }),
);

let server: TestServer;
let call: ReturnType<typeof api>;

beforeAll(async () => {
  // Only the third-party node is mocked: requests to the test server itself pass through.
  node.listen({
    onUnhandledRequest(request, print) {
      if (new URL(request.url).hostname === "127.0.0.1") return;
      print.error();
    },
  });
  server = await startTestServer();
  call = api(server.url, (await server.createKey({ scopes: ["wallets:write"] })).key);
  await connect(server, {
    category: "chain_read",
    providerSlug: "json_rpc",
    config: {
      rpcUrls: { ethereum: `${RPC}/ok`, polygon: `${RPC}/down`, arbitrum: `${RPC}/rpc-error`, base: `${RPC}/slow` },
      timeoutMs: 300,
    },
  });
});
afterEach(() => {
  calls.length = 0;
});
afterAll(async () => {
  node.close();
  await server?.close();
});

const status = (body: Record<string, unknown>, c = call) => c("POST", "/api/v2/agent/treasury/status", body);
const stress = (body: Record<string, unknown>, c = call) =>
  c("POST", "/api/v2/agent/treasury/stress-test", { scenario: { reserveRatio: "1", redemptionShockPercent: "10" }, ...body });

describe("a configured chain is read through the node", () => {
  it("status: total supply, decimals and symbol at one block; not simulated", async () => {
    const res = await status({ contractAddress: TOKEN, chain: "ethereum" });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({
      chain: "ethereum",
      asset: "USDC",
      totalSupply: { valueMinor: SUPPLY.toString(), decimals: 6, source: "chain_read:json_rpc", blockNumber: BLOCK },
      reserveRatio: { value: null, reason: "source_not_connected", source: null },
      simulated: false,
    });
    const ethCalls = calls.filter((c) => c.method === "eth_call");
    expect(ethCalls.length).toBeGreaterThanOrEqual(2);
    // Every read is pinned to the block the read started at.
    for (const c of ethCalls) expect(c.params[1]).toBe(`0x${BLOCK.toString(16)}`);
  });

  it("stress test: total supply from the node", async () => {
    const res = await stress({ contractAddress: TOKEN, chain: "ethereum", asset: "USDC" });
    expect(res.status, res.text).toBe(200);
    expect(res.json.inputs).toMatchObject({
      totalSupplyMinor: SUPPLY.toString(),
      totalSupplySource: "chain_read:json_rpc",
      blockNumber: BLOCK,
    });
    expect(res.json.results.redemptionsMinor).toBe((SUPPLY / 10n).toString());
    expect(res.json.simulated).toBe(false);
  });

  it("serves a production key with a reviewed production connection", async () => {
    const production = api(
      server.url,
      (await server.createKey({ organizationId: "org_prod", environment: "production", scopes: ["wallets:write"] })).key,
    );
    expect((await status({ contractAddress: TOKEN, chain: "ethereum" }, production)).status).toBe(424);
    await connect(server, {
      organizationId: "org_prod",
      environment: "production",
      category: "chain_read",
      providerSlug: "json_rpc",
      config: { rpcUrls: { ethereum: `${RPC}/ok` } },
    });
    const res = await status({ contractAddress: TOKEN, chain: "ethereum" }, production);
    expect(res.status, res.text).toBe(200);
    expect(res.json.simulated).toBe(false);
    // The sandbox chain is never served to a production key.
    expect((await status({ contractAddress: TOKEN, chain: "sandbox" }, production)).json.code).toBe("UNSUPPORTED_CHAIN");
  });
});

describe("a node that fails → 503 SOURCE_NOT_AVAILABLE", () => {
  it.each([
    ["answers HTTP 502", "polygon"],
    ["answers a JSON-RPC error", "arbitrum"],
    ["times out", "base"],
  ])("when the node %s", async (_name, chain) => {
    const started = Date.now();
    for (const res of [await status({ contractAddress: TOKEN, chain }), await stress({ contractAddress: TOKEN, chain })]) {
      expect(res.status, res.text).toBe(503);
      expect(res.json.code).toBe("SOURCE_NOT_AVAILABLE");
      expect(res.headers.get("retry-after")).not.toBeNull();
    }
    // The timeout (300 ms in the connection config) bounds the wait; the slow node would take 3 s per request.
    expect(Date.now() - started).toBeLessThan(2_500);
  });
});

describe("an address that holds no token", () => {
  it.each([
    ["no code at the address", NO_CODE],
    ["totalSupply() reverts", REVERTS],
  ])("%s: status 404 NOT_FOUND, stress test 422 PRECHECK_FAILED", async (_name, address) => {
    const s = await status({ contractAddress: address, chain: "ethereum" });
    expect(s.status, s.text).toBe(404);
    expect(s.json.code).toBe("NOT_FOUND");
    const t = await stress({ contractAddress: address, chain: "ethereum" });
    expect(t.status).toBe(422);
    expect(t.json.code).toBe("PRECHECK_FAILED");
  });
});

describe("chains the reader does not support", () => {
  it("400 UNSUPPORTED_CHAIN for a chain without an RPC URL, on status and stress test", async () => {
    expect((await status({ contractAddress: TOKEN, chain: "optimism" })).json.code).toBe("UNSUPPORTED_CHAIN");
    const res = await stress({ contractAddress: TOKEN, chain: "optimism" });
    expect(res.status).toBe(400);
    expect(res.json.code).toBe("UNSUPPORTED_CHAIN");
    expect(calls).toHaveLength(0);
  });

  it("500 SERVER_MISCONFIGURED for an unusable json_rpc config", async () => {
    const key = api(server.url, (await server.createKey({ organizationId: "org_misconfigured", scopes: ["wallets:write"] })).key);
    await connect(server, {
      organizationId: "org_misconfigured",
      category: "chain_read",
      providerSlug: "json_rpc",
      config: { rpcUrls: { ethereum: "ftp://nope" } },
    });
    const res = await status({ contractAddress: TOKEN, chain: "ethereum" }, key);
    expect(res.status).toBe(500);
    expect(res.json.code).toBe("SERVER_MISCONFIGURED");
  });
});
