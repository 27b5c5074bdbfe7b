// GET /api/metric/{metricId}: access, validation, sample series, live series, isolation, and the documented catalogue.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { METRIC_CATALOGUE } from "../../server/domain/metrics/catalogue.ts";
import { api, startTestServer, type TestServer } from "../helpers/test-server.ts";

const EVM = "0x52908400098527886E0F7030069857D2E4169EE7";
const DAY_MS = 86_400_000;

let server: TestServer;
let analytics: ReturnType<typeof api>;

beforeAll(async () => {
  server = await startTestServer();
  analytics = api(server.url, (await server.createKey({ organizationId: "org_metrics_empty", scopes: ["analytics:read"] })).key);
});
afterAll(() => server?.close());

const utcMidnight = (t: number) => {
  const d = new Date(t);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
};
const mondayOf = (t: number) => {
  const day = utcMidnight(t);
  return day - ((new Date(day).getUTCDay() + 6) % 7) * DAY_MS;
};

/** Calls `send`, and returns the response with the UTC day starts before and after it (a call may straddle midnight). */
async function timed<T>(send: () => Promise<T>): Promise<{ res: T; days: number[] }> {
  const before = Date.now();
  const res = await send();
  return { res, days: [utcMidnight(before), utcMidnight(Date.now())] };
}

type Point = { timestamp: string; value: number };

/** Two answers for the same series agree on every bucket both contain, and share at least `atLeast` of them. */
function expectSameValuesWhereBothHaveAPoint(first: Point[], second: Point[], atLeast: number) {
  const byTime = new Map(first.map((p) => [p.timestamp, p.value]));
  const shared = second.filter((p) => byTime.has(p.timestamp));
  expect(shared.length).toBeGreaterThanOrEqual(atLeast);
  for (const p of shared) expect(p.value, p.timestamp).toBe(byTime.get(p.timestamp));
}

describe("access and validation", () => {
  it("needs a key (401) with analytics:read (403 for a wallets key)", async () => {
    const none = await api(server.url)("GET", "/api/metric/payments.count");
    expect(none.status).toBe(401);
    expect(none.json).toMatchObject({ code: "unauthorized" });
    const wallets = api(server.url, (await server.createKey({ scopes: ["wallets:write"] })).key);
    const res = await wallets("GET", "/api/metric/payments.count");
    expect(res.status).toBe(403);
    expect(res.json).toMatchObject({ code: "forbidden", requestId: res.headers.get("x-request-id") });
  });

  it("analytics:write implies analytics:read", async () => {
    const writer = api(server.url, (await server.createKey({ scopes: ["analytics:write"] })).key);
    expect((await writer("GET", "/api/metric/payments.count")).status).toBe(200);
  });

  it("an unknown metric is 404 not_found", async () => {
    const res = await analytics("GET", "/api/metric/payments.nope");
    expect(res.status).toBe(404);
    expect(res.json).toMatchObject({ code: "not_found", error: expect.any(String) });
  });

  it.each(["range=2d", "range=7D", "range=", "range=1w", "range=7d&range=30d", "from=2026-01-01"])(
    "?%s is 400 invalid_request",
    async (q) => {
      const res = await analytics("GET", `/api/metric/payments.count?${q}`);
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({ code: "invalid_request" });
    },
  );

  it.each(["Payments.Count", "payments-count", "payments%20count"])("a malformed metric id %s is 400", async (id) => {
    expect((await analytics("GET", `/api/metric/${id}`)).status).toBe(400);
  });

  it("defaults to range 30d", async () => {
    const res = await analytics("GET", "/api/metric/payments.volume");
    expect(res.status).toBe(200);
    expect(res.json.range).toBe("30d");
    expect(res.json.points).toHaveLength(30);
    expect(res.json).toEqual((await analytics("GET", "/api/metric/payments.volume?range=30d")).json);
  });
});

describe("sample series (an organization with no activity)", () => {
  it.each([
    ["7d", 7],
    ["30d", 30],
    ["90d", 90],
  ] as const)("%s: %i daily points ending today, source sample, deterministic", async (range, count) => {
    const { res, days } = await timed(() => analytics("GET", `/api/metric/payments.volume?range=${range}`));
    expect(res.status).toBe(200);
    const { points, latest, source, definition, metricId } = res.json;
    expect(metricId).toBe("payments.volume");
    expect(source).toBe("sample");
    expect(definition).toMatchObject({ id: "payments.volume", unit: "usd", aggregation: "sum", bucket: "day" });
    expect(points).toHaveLength(count);
    const times = points.map((p: { timestamp: string }) => Date.parse(p.timestamp));
    expect(days).toContain(times.at(-1));
    for (let i = 1; i < times.length; i++) expect(times[i] - times[i - 1]).toBe(DAY_MS);
    for (const p of points) expect(p.value).toBeGreaterThan(0);
    expect(latest).toEqual(points.at(-1));
    // Deterministic: asked again, every day both answers cover has the same value (a UTC midnight between the two
    // requests shifts the window by one day, so compare by timestamp, never skip).
    const again = await analytics("GET", `/api/metric/payments.volume?range=${range}`);
    expectSameValuesWhereBothHaveAPoint(points, again.json.points, count - 1);
  });

  it("1y: 52 weekly points, each Monday 00:00 UTC, the last one this week", async () => {
    const { res, days } = await timed(() => analytics("GET", "/api/metric/payments.count?range=1y"));
    expect(res.status).toBe(200);
    const { points, latest, source, definition } = res.json;
    expect(source).toBe("sample");
    expect(definition.bucket).toBe("week");
    expect(points).toHaveLength(52);
    const times: number[] = points.map((p: { timestamp: string }) => Date.parse(p.timestamp));
    for (const t of times) {
      expect(new Date(t).getUTCDay()).toBe(1);
      expect(t % DAY_MS).toBe(0);
    }
    for (let i = 1; i < times.length; i++) expect((times[i] as number) - (times[i - 1] as number)).toBe(7 * DAY_MS);
    expect(days.map(mondayOf)).toContain(times.at(-1));
    for (const p of points) expect(Number.isInteger(p.value)).toBe(true);
    expect(latest).toEqual(points.at(-1));
  });

  it("the same series for every organization without data (it does not depend on who asks)", async () => {
    const other = api(server.url, (await server.createKey({ organizationId: "org_metrics_empty_2", scopes: ["analytics:read"] })).key);
    const a = await analytics("GET", "/api/metric/wallets.created?range=7d");
    const b = await other("GET", "/api/metric/wallets.created?range=7d");
    expectSameValuesWhereBothHaveAPoint(a.json.points, b.json.points, 6);
  });
});

describe("live series", () => {
  let live: ReturnType<typeof api>;
  let writer: ReturnType<typeof api>;
  let stranger: ReturnType<typeof api>;
  let strangerAnalytics: ReturnType<typeof api>;

  beforeAll(async () => {
    live = api(server.url, (await server.createKey({ organizationId: "org_metrics_live", scopes: ["analytics:read"] })).key);
    writer = api(
      server.url,
      (await server.createKey({ organizationId: "org_metrics_live", scopes: ["payments:write", "wallets:write"] })).key,
    );
    stranger = api(
      server.url,
      (await server.createKey({ organizationId: "org_metrics_other", scopes: ["payments:write", "wallets:write"] })).key,
    );
    strangerAnalytics = api(server.url, (await server.createKey({ organizationId: "org_metrics_other", scopes: ["analytics:read"] })).key);
    for (const [amount, stablecoin] of [
      ["10.50", "USDC"],
      ["20.25", "USDT"],
      ["1.000000000000000001", "DAI"],
    ]) {
      const res = await writer("POST", "/api/v1/payments", { amount, stablecoin, chain: "base", toAddress: EVM });
      expect(res.status).toBe(201);
    }
    for (const chain of ["base", "solana"]) expect((await writer("POST", "/api/v1/wallets", { chain })).status).toBe(201);
    // Another organization's activity, which must never count.
    expect((await stranger("POST", "/api/v1/payments", { amount: "1000", stablecoin: "USDC", chain: "base", toAddress: EVM })).status).toBe(
      201,
    );
    for (let i = 0; i < 3; i++) expect((await stranger("POST", "/api/v1/wallets", { chain: "base" })).status).toBe(201);
  });

  it.each([
    ["payments.volume", 31.75],
    ["payments.count", 3],
    ["wallets.created", 2],
  ])("%s: latest = today's total (%d), source live, earlier days 0", async (metricId, expected) => {
    for (const range of ["7d", "30d", "90d"]) {
      const res = await live("GET", `/api/metric/${metricId}?range=${range}`);
      expect(res.status).toBe(200);
      expect(res.json.source).toBe("live");
      expect(res.json.latest.value).toBeCloseTo(expected, 10);
      expect(res.json.latest).toEqual(res.json.points.at(-1));
      const earlier = res.json.points.slice(0, -1).map((p: { value: number }) => p.value);
      expect(earlier.every((v: number) => v === 0)).toBe(true);
    }
  });

  it("1y: this week's bucket holds today's activity", async () => {
    const res = await live("GET", "/api/metric/payments.count?range=1y");
    expect(res.json).toMatchObject({ source: "live", latest: { value: 3 } });
  });

  it("another organization's data never counts, and its own is separate", async () => {
    const theirs = await strangerAnalytics("GET", "/api/metric/payments.volume?range=7d");
    expect(theirs.json).toMatchObject({ source: "live", latest: { value: 1000 } });
    const theirWallets = await strangerAnalytics("GET", "/api/metric/wallets.created?range=7d");
    expect(theirWallets.json.latest.value).toBe(3);
    const ours = await live("GET", "/api/metric/payments.volume?range=7d");
    expect(ours.json.latest.value).toBeCloseTo(31.75, 10);
  });

  it("metrics without activity stay sample, never mixed with live data", async () => {
    const res = await live("GET", "/api/metric/bank_transfers.volume?range=7d");
    expect(res.json.source).toBe("sample");
  });
});

describe("catalogue", () => {
  const yaml = readFileSync(new URL("../../openapi/paths/metric-id.yaml", import.meta.url), "utf8");
  const documented = [...yaml.matchAll(/^\s*\| `([a-z0-9_.]+)` \|/gm)].map((m) => m[1] as string);

  it("the spec's table lists exactly the server's catalogue", () => {
    expect(documented.length).toBeGreaterThan(0);
    expect([...documented].sort()).toEqual([...METRIC_CATALOGUE.keys()].sort());
  });

  it.each(documented)("%s answers 200 with its definition", async (metricId) => {
    const res = await analytics("GET", `/api/metric/${metricId}?range=7d`);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ metricId, range: "7d", definition: { id: metricId, bucket: "day" } });
    expect(res.json.points).toHaveLength(7);
  });
});
