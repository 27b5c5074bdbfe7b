// `npm run bench:scale`: 1, 2 and 3 Coinplane instances on one PostgreSQL, connected directly and through PgBouncer in
// transaction mode (a private one, scripts/pgbouncer.ts), and req/s of GET, a keyed payment and a keyed bank transfer
// with every instance loaded at once (one autocannon per instance, BENCH_CONNECTIONS split between them). One more row:
// one instance direct with named prepared statements off (DATABASE_PREPARED_STATEMENTS=false), the cost the pooler's
// setting carries. On a 2-core machine this shows the curve's shape and where the database (and the CPU the instances
// share with it) saturates — not a cluster's ceiling. Writes the table to stdout; docs/performance.md keeps one run.
// Env: BENCH_SECONDS (default 5), BENCH_CONNECTIONS (default 24), BENCH_DATABASE_URL.
import { createServer } from "node:net";
import autocannon from "autocannon";
import { startPgBouncer } from "../scripts/pgbouncer.ts";
import { startCoinplane, withPostgresDatabase } from "./coinplane-server.ts";
import { type Started, stopProcess } from "./processes.ts";
import { prepareScenarios } from "./scenarios.ts";

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 24);
const MEASURED = ["wallet_get", "payment_post_keyed", "v2_write"] as const;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer().listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });
}

interface Config {
  label: string;
  instances: number;
  pooler: boolean;
  env?: Record<string, string>;
}

const CONFIGS: Config[] = [
  { label: "direct", instances: 1, pooler: false },
  { label: "direct, prepared statements off", instances: 1, pooler: false, env: { DATABASE_PREPARED_STATEMENTS: "false" } },
  { label: "direct", instances: 2, pooler: false },
  { label: "direct", instances: 3, pooler: false },
  { label: "PgBouncer (transaction)", instances: 1, pooler: true },
  { label: "PgBouncer (transaction)", instances: 2, pooler: true },
  { label: "PgBouncer (transaction)", instances: 3, pooler: true },
];

const lines: string[] = [];
await withPostgresDatabase(async (databaseUrl) => {
  const bouncer = await startPgBouncer({ poolSize: 20 });
  try {
    for (const config of CONFIGS) {
      const url = config.pooler ? bouncer.url(databaseUrl) : databaseUrl;
      const env = {
        DATABASE_POOL_SIZE: "10",
        ...(config.pooler ? { DATABASE_POOLER: "transaction", DATABASE_DIRECT_URL: databaseUrl } : {}),
        ...config.env,
      };
      const servers: Started[] = [];
      try {
        // One at a time: the first applies any migration; starting three at once on two cores only slows each.
        for (let i = 0; i < config.instances; i++) servers.push(await startCoinplane(url, await freePort(), undefined, env));
        const scenarios = await prepareScenarios(servers[0]?.url as string);
        const cells: string[] = [];
        for (const id of MEASURED) {
          const scenario = scenarios.find((s) => s.id === id);
          if (!scenario) throw new Error(`no scenario ${id}`);
          const each = Math.max(1, Math.floor(connections / config.instances));
          // Warm-up on every instance, then the measured run on all at once.
          await Promise.all(servers.map((s) => autocannon({ url: s.url, connections: each, duration: 2, requests: scenario.requests })));
          const results = await Promise.all(
            servers.map((s) => autocannon({ url: s.url, connections: each, duration: seconds, requests: scenario.requests })),
          );
          const rps = results.reduce((sum, r) => sum + r.requests.average, 0);
          const bad = results.reduce((sum, r) => sum + r.non2xx + r.errors, 0);
          cells.push(`${Math.round(rps)}${bad > 0 ? ` (${bad} non-2xx/errors)` : ""}`);
        }
        const line = `| ${config.instances} | ${config.label} | ${cells.join(" | ")} |`;
        lines.push(line);
        console.error(line);
      } finally {
        await Promise.all(servers.map((s) => stopProcess(s.child)));
      }
    }
  } finally {
    await bouncer.stop();
  }
});
console.log(
  [
    `Instances on one PostgreSQL, ${connections} connections in all, ${seconds} s per cell, req/s summed over the instances:`,
    "",
    "| instances | connection | GET /api/v1/wallets/{id} | POST /api/v1/payments (keyed) | POST bank-transfer (keyed) |",
    "|---|---|---|---|---|",
    ...lines,
  ].join("\n"),
);
