// Webhook delivery lag for `npm run bench` (issue 16): events are produced at a steady rate through the API (v1 wallet
// creates, each emitting wallet.created), a local receiver registered as the organization's endpoint records when each
// arrives, and lag = receipt time − the event's createdAt (the writing request's clock, taken just before its commit;
// same machine, same clock). Target: p99 ≤ 1 s at 100 events/s, with the server's default poll interval (250 ms).
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { ADMIN_TOKEN } from "./scenarios.ts";

export const LAG_TARGET_P99_MS = 1_000;

export interface WebhookLag {
  database: string;
  ratePerSecond: number;
  seconds: number;
  produced: number;
  delivered: number;
  /** Receipts beyond the first per event (at-least-once resends; expected 0 on a healthy run). */
  duplicates: number;
  failedWrites: number;
  /** Latency of the writes that produced the events (their createdAt is taken at their start). */
  writeP99Ms: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

async function post(url: string, path: string, token: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${url}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json().catch(() => null)) as Record<string, unknown> | null };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;

export async function measureWebhookLag(serverUrl: string, database: string, options: { ratePerSecond?: number; seconds?: number } = {}) {
  const ratePerSecond = options.ratePerSecond ?? 100;
  const seconds = options.seconds ?? 5;
  const firstReceipt = new Map<string, number>();
  const createdAt = new Map<string, number>();
  let duplicates = 0;
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const receivedAt = Date.now();
      const event = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { id: string; createdAt: string };
      if (firstReceipt.has(event.id)) duplicates++;
      else {
        firstReceipt.set(event.id, receivedAt);
        createdAt.set(event.id, Date.parse(event.createdAt));
      }
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  try {
    const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks`;
    const organizationId = `org_bench_hooks_${randomUUID().slice(0, 8)}`;
    const keyRes = await post(serverUrl, "/api/admin/keys", ADMIN_TOKEN, {
      organizationId,
      environment: "sandbox",
      scopes: ["wallets:write", "webhooks:write"],
    });
    const key = keyRes.json?.key as string;
    // Warm-up before the endpoint exists (so these events are not delivered): the route's first request compiles its
    // validators, which is not delivery lag.
    for (let i = 0; i < 20; i++) await post(serverUrl, "/api/v1/wallets", key, { chain: "base" });
    const endpoint = await post(
      serverUrl,
      "/api/v2/agent/webhook-endpoints",
      key,
      { url: receiverUrl, enabledEvents: ["wallet.created"] },
      {
        "idempotency-key": randomUUID(),
      },
    );
    if (endpoint.status !== 201) throw new Error(`webhook endpoint: ${endpoint.status} ${JSON.stringify(endpoint.json)}`);

    // A steady rate: request i leaves at start + i / rate, whatever the previous ones take.
    const total = Math.round(ratePerSecond * seconds);
    const start = performance.now();
    let failedWrites = 0;
    const writeMs: number[] = [];
    const writes: Promise<void>[] = [];
    for (let i = 0; i < total; i++) {
      const wait = start + (i * 1000) / ratePerSecond - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const sent = performance.now();
      writes.push(
        post(serverUrl, "/api/v1/wallets", key, { chain: "base" }).then(
          (r) => {
            writeMs.push(performance.now() - sent);
            if (r.status !== 201) failedWrites++;
          },
          () => {
            failedWrites++;
          },
        ),
      );
    }
    await Promise.all(writes);
    const produced = total - failedWrites;
    const deadline = Date.now() + 30_000;
    while (firstReceipt.size < produced && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));

    const lags = [...firstReceipt].map(([id, at]) => at - (createdAt.get(id) as number)).sort((a, b) => a - b);
    const lag: WebhookLag = {
      database,
      ratePerSecond,
      seconds,
      produced,
      delivered: firstReceipt.size,
      duplicates,
      failedWrites,
      writeP99Ms: Math.round(
        percentile(
          writeMs.sort((a, b) => a - b),
          99,
        ),
      ),
      p50Ms: percentile(lags, 50),
      p99Ms: percentile(lags, 99),
      maxMs: lags.at(-1) ?? Number.NaN,
    };
    return lag;
  } finally {
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
  }
}

/** The results.md section. */
export function renderWebhookLag(lags: WebhookLag[]): string {
  if (lags.length === 0) return "";
  const rows = lags.map((l) => {
    const met = l.delivered === l.produced && l.failedWrites === 0 && l.p99Ms <= LAG_TARGET_P99_MS;
    return `| ${l.database} | ${l.ratePerSecond}/s × ${l.seconds} s | ${l.produced} | ${l.delivered} | ${l.duplicates} | ${l.writeP99Ms} | ${l.p50Ms} | ${l.p99Ms} | ${l.maxMs} | ${met ? "met" : "**not met**"} |`;
  });
  return `
## Webhook delivery lag (issue 16)

bench/webhook-lag.ts, after the request scenarios: v1 wallet creates at a steady rate, each emitting \`wallet.created\`
to a local receiver registered as the organization's endpoint; lag = receipt − the event's \`createdAt\` (taken just
before the write commits). The server runs its delivery worker with the defaults (poll every 250 ms, batches of 20).
Target: p99 ≤ ${LAG_TARGET_P99_MS} ms at 100 events/s, every event delivered.

| Database | Rate | Events | Delivered | Duplicates | Write p99 (ms) | Lag p50 (ms) | Lag p99 (ms) | Lag max (ms) | Target |
|---|---|---:|---:|---:|---:|---:|---:|---:|---|
${rows.join("\n")}
`;
}
