// `npm run bench:storage`: what each write leaves on disk. N keyed writes of each family through one Coinplane instance
// on PostgreSQL (a webhook endpoint subscribed to every event, so the outbox's deliveries count too), then the growth of
// every table — its rows (heap + TOAST) and its indexes apart — divided by N: bytes per write, by table. Sizes are
// pages PostgreSQL allocated (8 kB each, fill factor and free space included), read after a VACUUM so dead tuples from
// the writes' own updates do not count twice. Env: BENCH_WRITES (default 2000), BENCH_DATABASE_URL.
import { createServer as createHttpServer } from "node:http";
import { createServer } from "node:net";
import pg from "pg";
import { startCoinplane, withPostgresDatabase } from "./coinplane-server.ts";
import { stopProcess } from "./processes.ts";
import { ADMIN_TOKEN } from "./scenarios.ts";

const writes = Number(process.env.BENCH_WRITES ?? 2000);
const CONCURRENCY = 8;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer().listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });
}

type Sizes = Map<string, { heap: number; indexes: number }>;
async function sizes(db: pg.Client): Promise<Sizes> {
  await db.query("VACUUM");
  const { rows } = await db.query<{ name: string; heap: string; indexes: string }>(
    `SELECT c.relname AS name, pg_table_size(c.oid) AS heap, pg_indexes_size(c.oid) AS indexes
     FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relkind = 'r'`,
  );
  return new Map(rows.map((r) => [r.name, { heap: Number(r.heap), indexes: Number(r.indexes) }]));
}

const EVM = "0x52908400098527886E0F7030069857D2E4169EE7";
const sepa = (i: number) => ({
  amount: "1250.00",
  currency: "EUR",
  rail: "sepa",
  purposeCode: "SUPP",
  reference: `STORAGE-${i}`,
  source: { type: "iban", iban: "DE89370400440532013000", bic: "COBADEFFXXX", accountHolderName: "Acme Trading GmbH", country: "DE" },
  destination: { type: "iban", iban: "FR1420041010050500013M02606", bic: "PSSTFRPPXXX", accountHolderName: "Dupont SARL", country: "FR" },
  jurisdiction: ["DE", "FR"],
  operatorJurisdiction: "DE",
  senderJurisdiction: "DE",
  receiverJurisdiction: "FR",
});

const FAMILIES: Array<{ name: string; path: string; body: (i: number) => unknown }> = [
  { name: "POST /api/v2/agent/payments/bank-transfer (keyed)", path: "/api/v2/agent/payments/bank-transfer", body: sepa },
  {
    name: "POST /api/v1/payments (keyed)",
    path: "/api/v1/payments",
    body: () => ({ amount: "125.50", stablecoin: "USDC", chain: "base", toAddress: EVM }),
  },
  { name: "POST /api/v1/wallets (keyed)", path: "/api/v1/wallets", body: () => ({ chain: "base" }) },
];

const out: string[] = [];
const receiver = createHttpServer((req, res) => {
  req.resume();
  req.on("end", () => res.writeHead(200).end("ok"));
});
await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
const receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hooks`;

await withPostgresDatabase(async (databaseUrl) => {
  const server = await startCoinplane(databaseUrl, await freePort(), undefined, { WEBHOOK_POLL_INTERVAL_MS: "50" });
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const made = await fetch(`${server.url}/api/admin/keys`, {
      method: "POST",
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({
        organizationId: "org_storage",
        environment: "sandbox",
        scopes: ["payments:write", "wallets:write", "webhooks:write"],
      }),
    });
    const key = ((await made.json()) as { key: string }).key;
    const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
    const endpoint = await fetch(`${server.url}/api/v2/agent/webhook-endpoints`, {
      method: "POST",
      headers: { ...headers, "idempotency-key": "storage-endpoint" },
      body: JSON.stringify({ url: receiverUrl, enabledEvents: ["*"] }),
    });
    if (endpoint.status !== 201) throw new Error(`endpoint: ${endpoint.status} ${await endpoint.text()}`);
    let counter = 0;
    for (const family of FAMILIES) {
      const before = await sizes(db);
      let next = 0;
      const worker = async () => {
        while (next < writes) {
          const i = next++;
          const res = await fetch(`${server.url}${family.path}`, {
            method: "POST",
            headers: { ...headers, "idempotency-key": `storage-${++counter}` },
            body: JSON.stringify(family.body(i)),
          });
          await res.arrayBuffer();
          if (res.status >= 300) throw new Error(`${family.path}: ${res.status}`);
        }
      };
      await Promise.all(Array.from({ length: CONCURRENCY }, worker));
      // Let the worker deliver what the writes queued (a delivery's row and its attempt are part of the write's cost).
      for (let waited = 0; waited < 60_000; waited += 250) {
        const { rows } = await db.query(`SELECT count(*)::int AS n FROM "WebhookDelivery" WHERE status = 'pending'`);
        if (rows[0].n === 0) break;
        await new Promise((r) => setTimeout(r, 250));
      }
      const after = await sizes(db);
      let total = 0;
      const lines: string[] = [];
      for (const [name, size] of after) {
        const was = before.get(name) ?? { heap: 0, indexes: 0 };
        const heap = (size.heap - was.heap) / writes;
        const indexes = (size.indexes - was.indexes) / writes;
        if (heap + indexes < 1) continue;
        total += heap + indexes;
        lines.push(`| ${family.name} | ${name} | ${Math.round(heap)} | ${Math.round(indexes)} |`);
      }
      out.push(...lines, `| ${family.name} | **all tables** | | **${Math.round(total)}** |`);
      console.error(`${family.name}: ${Math.round(total)} bytes per write`);
    }
  } finally {
    await db.end();
    await stopProcess(server.child);
    receiver.close();
  }
});
console.log(
  [
    `${writes} writes per family, 8 at a time, one instance on PostgreSQL, a webhook endpoint for every event:`,
    "",
    "| write | table | rows (heap + TOAST), bytes/write | indexes, bytes/write |",
    "|---|---|---|---|",
    ...out,
  ].join("\n"),
);
