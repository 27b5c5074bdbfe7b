// A minimal Ethereum JSON-RPC node over HTTP on 127.0.0.1 serving one ERC-20 (for the json_rpc chain reader).
import { createServer, type Server } from "node:http";
import { decodeFunctionData, encodeFunctionResult, erc20Abi, type Hex } from "viem";

export const TOKEN = "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48";
export const SUPPLY = 52_345_678_901_234_567n;
const BLOCK = 21_000_000;

interface RpcCall {
  id: number;
  method: string;
  params: unknown[];
}

function answer(call: RpcCall) {
  const ok = (result: unknown) => ({ jsonrpc: "2.0", id: call.id, result });
  switch (call.method) {
    case "eth_chainId":
      return ok("0x1");
    case "eth_blockNumber":
      return ok(`0x${BLOCK.toString(16)}`);
    case "eth_getCode":
      return ok("0x6080604052");
    case "eth_call": {
      const [{ data }] = call.params as [{ data: Hex }];
      const { functionName } = decodeFunctionData({ abi: erc20Abi, data });
      const values: Record<string, unknown> = { totalSupply: SUPPLY, decimals: 6, symbol: "USDC", balanceOf: 0n };
      return ok(encodeFunctionResult({ abi: erc20Abi, functionName, result: values[functionName] } as never));
    }
    default:
      return { jsonrpc: "2.0", id: call.id, error: { code: -32601, message: "method not found" } };
  }
}

export async function startFakeRpcNode(): Promise<{ port: number; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (d: Buffer) => {
      body += d.toString();
    });
    req.on("end", () => {
      const parsed = JSON.parse(body) as RpcCall | RpcCall[];
      const result = Array.isArray(parsed) ? parsed.map(answer) : answer(parsed);
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(result));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as { port: number }).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
