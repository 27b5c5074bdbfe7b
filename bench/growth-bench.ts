// `npm run bench:growth`: request latency as the tables grow. Bank transfers and events are loaded straight through SQL
// (bench/growth-seed.ts: generate_series, 10 organizations) to 10k, 100k and 1M rows each (cards to a tenth of that),
// ANALYZEd, and at each size one Coinplane instance on PostgreSQL answers, one request at a time (latency, not
// throughput): creating a bank transfer (keyed), reading one (bank-transfer/status), and listing bank transfers and
// events — the first page, a deep page by cursor (¾ down the organization's list), a createdAt range and a status/type
// filter. p50/p99 per operation and size; the last column is the 1M p99 over the 10k p99 (the goal: ≤ 1.5).
// Env: BENCH_SAMPLES (default 200 per cell), BENCH_SIZES (default 10000,100000,1000000), BENCH_DATABASE_URL.
import { createServer } from "node:net";
import pg from "pg";
import { startCoinplane, withPostgresDatabase } from "./coinplane-server.ts";
import { bankTransferId, GROWTH_ORG, seedBankTransfers, seedCards, seedEvents, seedOrganizations } from "./growth-seed.ts";
import { stopProcess } from "./processes.ts";
import { ADMIN_TOKEN } from "./scenarios.ts";

const samples = Number(process.env.BENCH_SAMPLES ?? 200);
const sizes = (process.env.BENCH_SIZES ?? "10000,100000,1000000").split(",").map(Number);
const ORG = 3;
const CHUNK = 100_000;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer().listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });
}

const SEPA = (reference: string) => ({
  amount: "1250.00",
  currency: "EUR",
  rail: "sepa",
  purposeCode: "SUPP",
  reference,
  source: { type: "iban", iban: "DE89370400440532013000", bic: "COBADEFFXXX", accountHolderName: "Acme Trading GmbH", country: "DE" },
  destination: { type: "iban", iban: "FR1420041010050500013M02606", bic: "PSSTFRPPXXX", accountHolderName: "Dupont SARL", country: "FR" },
  jurisdiction: ["DE", "FR"],
  operatorJurisdiction: "DE",
  senderJurisdiction: "DE",
  receiverJurisdiction: "FR",
});

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] as number;

const table = new Map<string, Map<number, { p50: number; p99: number }>>();

await withPostgresDatabase(async (databaseUrl) => {
  const server = await startCoinplane(databaseUrl, await freePort());
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    await seedOrganizations(db);
    const created = await fetch(`${server.url}/api/admin/keys`, {
      method: "POST",
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({
        organizationId: GROWTH_ORG(ORG),
        environment: "sandbox",
        scopes: ["payments:write", "payments:read", "webhooks:read"],
      }),
    });
    if (created.status !== 201) throw new Error(`key: ${created.status} ${await created.text()}`);
    const key = ((await created.json()) as { key: string }).key;
    const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
    let counter = 0;
    const timed = async (method: string, path: string, body?: unknown, extra: Record<string, string> = {}) => {
      const started = performance.now();
      const res = await fetch(`${server.url}${path}`, {
        method,
        headers: { ...headers, ...extra },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      await res.arrayBuffer();
      const ms = performance.now() - started;
      if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status}`);
      return ms;
    };
    let loaded = 0;
    for (const size of sizes) {
      const t0 = Date.now();
      for (let from = loaded; from < size; from += CHUNK) {
        const to = Math.min(size, from + CHUNK);
        await seedBankTransfers(db, from, to);
        await seedEvents(db, from, to);
        await seedCards(db, Math.floor(from / 10), Math.floor(to / 10));
      }
      loaded = size;
      await db.query(`ANALYZE "BankTransfer"; ANALYZE "Event"; ANALYZE "Card"`);
      console.error(`${size} rows loaded and analyzed in ${Math.round((Date.now() - t0) / 1000)} s`);
      // Organization ORG's rows are g ≡ ORG (mod 10); ¾ down its list, and a six-hour window in the middle.
      const deep = Math.floor((size * 0.75) / 10) * 10 + ORG;
      const middle = new Date(Date.parse("2026-11-01T00:00:00Z") - Math.floor(size / 2) * 1000);
      const range = `createdAfter=${encodeURIComponent(new Date(middle.getTime() - 3 * 3_600_000).toISOString())}&createdBefore=${encodeURIComponent(middle.toISOString())}`;
      const ops: Array<[string, () => Promise<number>]> = [
        [
          "create bank transfer (keyed)",
          () =>
            timed("POST", "/api/v2/agent/payments/bank-transfer", SEPA(`GROW-${size}-${++counter}`), {
              "idempotency-key": `grow-${size}-${counter}`,
            }),
        ],
        [
          "read bank transfer (status)",
          () =>
            timed("POST", "/api/v2/agent/payments/bank-transfer/status", {
              transferId: bankTransferId(deep),
              senderJurisdiction: "DE",
              receiverJurisdiction: "FR",
            }),
        ],
        ["list bank transfers: first page", () => timed("GET", "/api/v2/agent/payments/bank-transfer?limit=20")],
        [
          "list bank transfers: deep page (cursor)",
          () => timed("GET", `/api/v2/agent/payments/bank-transfer?limit=20&startingAfter=${bankTransferId(deep)}`),
        ],
        ["list bank transfers: createdAt range", () => timed("GET", `/api/v2/agent/payments/bank-transfer?limit=20&${range}`)],
        ["list bank transfers: status=failed (2%)", () => timed("GET", "/api/v2/agent/payments/bank-transfer?limit=20&status=failed")],
        ["list events: first page", () => timed("GET", "/api/v2/agent/events?limit=20")],
        ["list events: deep page (cursor)", () => timed("GET", `/api/v2/agent/events?limit=20&startingAfter=evt_g${deep}`)],
        ["list events: createdAt range", () => timed("GET", `/api/v2/agent/events?limit=20&${range}`)],
        ["list events: type filter", () => timed("GET", "/api/v2/agent/events?limit=20&type=bank_transfer.failed")],
      ];
      for (const [name, op] of ops) {
        for (let i = 0; i < 20; i++) await op(); // warm-up
        const ms: number[] = [];
        for (let i = 0; i < samples; i++) ms.push(await op());
        ms.sort((a, b) => a - b);
        const row = table.get(name) ?? new Map();
        row.set(size, { p50: percentile(ms, 0.5), p99: percentile(ms, 0.99) });
        table.set(name, row);
      }
      console.error(`${size}: measured`);
    }
  } finally {
    await db.end();
    await stopProcess(server.child);
  }
});

const fmt = (n: number) => n.toFixed(1);
const header = `| operation | ${sizes.map((s) => `${s.toLocaleString("en")} p50 / p99 ms`).join(" | ")} | p99 ${sizes.at(-1)?.toLocaleString("en")} ÷ ${sizes[0]?.toLocaleString("en")} |`;
console.log(
  [
    `One instance on PostgreSQL, ${samples} sequential requests per cell; bank transfers and events at each size, cards a tenth:`,
    "",
    header,
    `|---|${sizes.map(() => "---|").join("")}---|`,
    ...[...table].map(([name, row]) => {
      const first = row.get(sizes[0] as number);
      const last = row.get(sizes.at(-1) as number);
      const ratio = first && last ? (last.p99 / first.p99).toFixed(2) : "";
      return `| ${name} | ${sizes
        .map((s) => {
          const c = row.get(s);
          return c ? `${fmt(c.p50)} / ${fmt(c.p99)}` : "";
        })
        .join(" | ")} | ${ratio} |`;
    }),
  ].join("\n"),
);
