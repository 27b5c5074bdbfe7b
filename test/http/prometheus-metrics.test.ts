// GET /metrics (server/observability/metrics.ts, server/http/metrics-endpoint.ts): a request shows up in the request
// histogram under its operation and status class, refusals are counted by reason, the scrape-time gauges answer from
// the database and the pools, and METRICS_TOKEN guards the endpoint.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, startTestServer, type TestServer } from "../helpers/test-server.ts";

const METRICS_TOKEN = "metrics-token-0123456789";

let server: TestServer;
let call: ReturnType<typeof api>;

beforeAll(async () => {
  server = await startTestServer({ env: { METRICS_TOKEN, RATE_LIMIT_PER_KEY: "3" } });
  call = api(server.url, (await server.createKey({ organizationId: "org_metrics", scopes: ["wallets:write"] })).key);
});
afterAll(() => server?.close());

async function scrape(): Promise<string> {
  const res = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.text();
}

/** The value of one sample line, e.g. `name{a="b"} 3` → 3; undefined when absent. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of text.split("\n")) {
    if (!line.startsWith(`${name}{`)) continue;
    const inside = line.slice(name.length + 1, line.lastIndexOf("}"));
    const found = Object.fromEntries([...inside.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([k, v]) => found[k] === v) && Object.keys(found).length === Object.keys(labels).length)
      return Number(line.slice(line.lastIndexOf(" ") + 1));
  }
  return undefined;
}

describe("GET /metrics", () => {
  it("needs METRICS_TOKEN as a bearer token", async () => {
    expect((await fetch(`${server.url}/metrics`)).status).toBe(401);
    const wrong = await fetch(`${server.url}/metrics`, { headers: { authorization: "Bearer not-the-token" } });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get("www-authenticate")).toMatch(/^Bearer/);
    // Neither the admin token nor an API key opens it.
    const admin = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${server.adminToken}` } });
    expect(admin.status).toBe(401);
  });

  it("counts a request under its operation and status class, with its latency", async () => {
    const count = (text: string) =>
      sample(text, "coinplane_http_request_duration_seconds_count", { operation: "createWallet", status_class: "2xx" }) ?? 0;
    const before = count(await scrape());
    const created = await call("POST", "/api/v1/wallets", { chain: "base", label: "metrics" });
    expect(created.status).toBe(201);
    const after = await scrape();
    expect(count(after)).toBe(before + 1);
    expect(
      sample(after, "coinplane_http_request_duration_seconds_bucket", { le: "+Inf", operation: "createWallet", status_class: "2xx" }),
    ).toBe(before + 1);
    expect(
      sample(after, "coinplane_http_request_duration_seconds_sum", { operation: "createWallet", status_class: "2xx" }),
    ).toBeGreaterThan(0);
  });

  it("counts refusals by reason: a missing credential, a spent rate budget", async () => {
    const before = await scrape();
    const reason = (text: string, r: string, operation: string) =>
      sample(text, "coinplane_rejections_total", { reason: r, operation }) ?? 0;
    expect((await api(server.url)("GET", "/api/v1/wallets")).status).toBe(401);
    let limited = 0;
    for (let i = 0; i < 5; i++) if ((await call("GET", "/api/v1/wallets")).status === 429) limited++;
    expect(limited).toBeGreaterThan(0);
    const after = await scrape();
    expect(reason(after, "unauthenticated", "listWallets")).toBe(reason(before, "unauthenticated", "listWallets") + 1);
    expect(reason(after, "rate_limited", "listWallets")).toBe(reason(before, "rate_limited", "listWallets") + limited);
    expect(
      sample(after, "coinplane_http_request_duration_seconds_count", { operation: "listWallets", status_class: "4xx" }),
    ).toBeGreaterThanOrEqual(1 + limited);
  });

  it("reads the gauges when scraped: webhook queue, compiler pool, reconciler backlog, database pool (PostgreSQL only), event loop", async () => {
    const text = await scrape();
    expect(sample(text, "coinplane_webhook_queue_depth", { state: "due" })).toBe(0);
    expect(sample(text, "coinplane_provider_intents", { state: "open" })).toBe(0);
    expect(sample(text, "coinplane_provider_intents", { state: "due" })).toBe(0);
    expect(sample(text, "coinplane_webhook_queue_depth", { state: "scheduled" })).toBe(0);
    expect(sample(text, "coinplane_compile_pool", { state: "size" })).toBe(server.config.compile.workers);
    expect(sample(text, "coinplane_compile_pool", { state: "queued" })).toBe(0);
    if (server.db.target.kind === "postgres") {
      expect(sample(text, "coinplane_db_pool_connections", { state: "max" })).toBe(5);
      expect(sample(text, "coinplane_db_pool_connections", { state: "open" })).toBeGreaterThanOrEqual(1);
    } else {
      // PGlite has no pool: no series rather than a made-up zero.
      expect(text).not.toMatch(/^coinplane_db_pool_connections\{/m);
    }
    expect(text).toMatch(/^nodejs_eventloop_lag_p99_seconds \d/m);
    expect(text).toMatch(/^# HELP coinplane_webhook_attempt_lag_seconds /m);
    expect(text).toMatch(/^# HELP coinplane_db_pool_wait_seconds /m);
  });

  it("webhook queue depth counts a delivery waiting to be sent", async () => {
    const hooks = api(
      server.url,
      (await server.createKey({ organizationId: "org_metrics", scopes: ["wallets:write", "webhooks:write"] })).key,
    );
    const endpoint = await hooks(
      "POST",
      "/api/v2/agent/webhook-endpoints",
      { url: "https://hooks.example.com/coinplane", enabledEvents: ["*"] },
      {
        "idempotency-key": randomUUID(),
      },
    );
    expect(endpoint.status, endpoint.text).toBe(201);
    // No delivery worker runs in this test server: the event's delivery stays due.
    expect((await hooks("POST", "/api/v1/wallets", { chain: "base", label: "queued" })).status).toBe(201);
    const text = await scrape();
    expect(sample(text, "coinplane_webhook_queue_depth", { state: "due" })).toBeGreaterThanOrEqual(1);
  });
});

describe("GET /metrics without METRICS_TOKEN (local development)", () => {
  it("is open", async () => {
    const open = await startTestServer();
    try {
      const res = await fetch(`${open.url}/metrics`);
      expect(res.status).toBe(200);
      expect(await res.text()).toMatch(/^# HELP coinplane_http_request_duration_seconds /m);
    } finally {
      await open.close();
    }
  });
});
