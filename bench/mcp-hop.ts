// `npx tsx bench/mcp-hop.ts`: what the MCP hop adds to a call. The same read (GET /api/v1/wallets/{id}) made N times
// sequentially straight over REST and as the `get_wallet` tool through /mcp with the official client (a stateless
// Streamable HTTP request, then the loopback REST call with the caller's key), on PostgreSQL; prints the medians and p95s.
// Not part of `npm test`. Env: MCP_HOP_CALLS (default 200).
import { randomUUID } from "node:crypto";
import { createServer } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { startCoinplane, withPostgresDatabase } from "./coinplane-server.ts";
import { stopProcess } from "./processes.ts";
import { ADMIN_TOKEN } from "./scenarios.ts";

const CALLS = Number(process.env.MCP_HOP_CALLS ?? 200);

/** A port the system has free now (other benchmarks and tests run on this machine at the same time). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
    probe.on("error", reject);
  });
}

function summary(ms: number[]): string {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (q: number) => (sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number).toFixed(2);
  return `median ${at(0.5)} ms, p95 ${at(0.95)} ms`;
}

async function timed(n: number, call: () => Promise<unknown>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await call();
    out.push(performance.now() - t);
  }
  return out;
}

await withPostgresDatabase(async (databaseUrl) => {
  const port = await freePort();
  const server = await startCoinplane(databaseUrl, port);
  const base = `http://127.0.0.1:${port}`;
  try {
    const created = await fetch(`${base}/api/admin/keys`, {
      method: "POST",
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ organizationId: `org_hop_${randomUUID().slice(0, 8)}`, environment: "sandbox", scopes: ["wallets:write"] }),
    });
    const { key } = (await created.json()) as { key: string };
    const headers = { authorization: `Bearer ${key}` };
    const wallet = (await (
      await fetch(`${base}/api/v1/wallets`, {
        method: "POST",
        headers: { ...headers, "content-type": "application/json", "idempotency-key": randomUUID() },
        body: JSON.stringify({ chain: "base", label: "hop" }),
      })
    ).json()) as { id: string };
    const client = new Client({ name: "mcp-hop", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers } }));
    const rest = () => fetch(`${base}/api/v1/wallets/${wallet.id}`, { headers }).then((r) => r.arrayBuffer());
    const tool = () => client.callTool({ name: "get_wallet", arguments: { id: wallet.id } });
    await timed(20, rest);
    await timed(20, tool);
    const restMs = await timed(CALLS, rest);
    const toolMs = await timed(CALLS, tool);
    console.log(`${CALLS} sequential calls, PostgreSQL`);
    console.log(`REST GET /api/v1/wallets/{id}: ${summary(restMs)}`);
    console.log(`MCP get_wallet via /mcp:       ${summary(toolMs)}`);
    await client.close();
  } finally {
    await stopProcess(server.child);
  }
});
