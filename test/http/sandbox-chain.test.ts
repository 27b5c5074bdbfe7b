// The sandbox chain survives a restart: its transaction log is in the database and a new process replays it into a
// fresh EVM. On PostgreSQL, two instances over one database share the chain (each catches up with the other's log).
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { createApp } from "../../server/app.ts";
import { forgetSandboxChain } from "../../server/chain/sandbox-chain.ts";
import { loadConfig } from "../../server/config.ts";
import { type Database, openDatabase } from "../../server/db/open-database.ts";
import { sandboxChainLogOf } from "../../server/db/sandbox-chain-log-store.ts";
import { configureCompiler } from "../../server/domain/contracts/compile-solidity.ts";
import { createLogger } from "../../server/logger.ts";
import { createRateLimiter } from "../../server/rate-limit/rate-limiter.ts";
import { INITIAL_SUPPLY, launchToken, SIGNER, TREASURY } from "../helpers/contracts.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database.ts";
import { api } from "../helpers/test-server.ts";
import { idem } from "../helpers/v2.ts";

const ADMIN_TOKEN = "test-admin-token-0123456789";

interface Instance {
  url: string;
  db: Database;
  close(): Promise<void>;
}

async function boot(database: TestDatabase): Promise<Instance> {
  const config = loadConfig({
    ADMIN_TOKEN,
    VALIDATE_RESPONSES: "true",
    // Hang guards (as in test/helpers/test-server.ts): a solc compile on a busy machine can pass the production 15 s.
    COMPILE_TIMEOUT_MS: "120000",
    REQUEST_TIMEOUT_MS: "120000",
    LOG_LEVEL: "silent",
    RATE_LIMIT_PER_KEY: "100000",
    RATE_LIMIT_PER_ORG: "100000",
  });
  // The compiler pool is the process's; configured here as a test server does (its deadline above).
  configureCompiler(config.compile);
  const db = await openDatabase({ url: database.url, poolSize: 5, pgliteTemplate: database.pgliteTemplate });
  const rateLimiter = createRateLimiter({ ...config.rateLimit });
  const { app } = createApp({ config, db, logger: createLogger("silent"), rateLimiter });
  const server = app.listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    db,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await rateLimiter.close();
      await db.close();
    },
  };
}

async function createKey(instance: Instance, scopes: string[]): Promise<string> {
  const res = await api(instance.url, ADMIN_TOKEN)("POST", "/api/admin/keys", {
    organizationId: "org_chain",
    environment: "sandbox",
    scopes,
  });
  expect(res.status).toBe(201);
  return res.json.key;
}

const supplyOf = async (call: ReturnType<typeof api>, contractAddress: string) => {
  const res = await call("POST", "/api/v2/agent/treasury/status", { contractAddress });
  expect(res.status, res.text).toBe(200);
  return res.json.totalSupply as { valueMinor: string; blockNumber: number };
};

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/**
 * Two server lifetimes over one database. On PostgreSQL: a real restart (a new instance, a new connection pool, a new
 * process-level chain). On in-memory PGlite the database cannot outlive its instance (and a PGlite folder costs ~10 s
 * to initialise), so the second lifetime keeps the server and drops this process's chain: the chain is rebuilt from
 * the log, exactly as after a restart.
 */
async function lifetimes(): Promise<{ first: () => Promise<Instance>; second: (first: Instance) => Promise<Instance> }> {
  const database = await createTestDatabase({ migrated: true });
  cleanups.push(() => database.drop());
  if (database.kind === "postgres") {
    return {
      first: () => boot(database),
      second: async (first) => {
        await first.close();
        return boot(database);
      },
    };
  }
  return {
    first: () => boot(database),
    second: async (first) => {
      forgetSandboxChain(sandboxChainLogOf(first.db.kysely));
      return first;
    },
  };
}

describe("the sandbox chain is persisted", () => {
  it("a restarted server replays the log: the token, its supply and its code are still there, and new deployments continue", async () => {
    const { first: start, second: restart } = await lifetimes();
    const first = await start();
    const key = await createKey(first, ["projects:write", "wallets:write"]);
    const token = await launchToken(api(first.url, key));
    const before = await supplyOf(api(first.url, key), token.contractAddress);
    expect(before.valueMinor).toBe(INITIAL_SUPPLY);
    const logLength = await first.db.prisma.sandboxChainTransaction.count();

    const second = await restart(first);
    try {
      const call = api(second.url, key);
      const after = await supplyOf(call, token.contractAddress);
      expect(after.valueMinor).toBe(INITIAL_SUPPLY);
      expect(after.blockNumber).toBeGreaterThanOrEqual(before.blockNumber);
      // A burn precheck reads the replayed balances.
      const burn = { issuerId: token.issuerId, amountMinor: INITIAL_SUPPLY, signerAddress: SIGNER, from: TREASURY };
      expect((await call("POST", "/api/v2/agent/treasury/burn", burn, idem())).status).toBe(201);
      expect((await call("POST", "/api/v2/agent/treasury/burn", { ...burn, amountMinor: `${INITIAL_SUPPLY}1` }, idem())).status).toBe(422);
      // The next deployment goes on top of the replayed state.
      const next = await launchToken(call, { asset: "NEXT", initialSupply: { to: TREASURY, amountMinor: "42" } });
      expect((await supplyOf(call, next.contractAddress)).valueMinor).toBe("42");
      expect((await supplyOf(call, token.contractAddress)).valueMinor).toBe(INITIAL_SUPPLY);
      const log = await second.db.prisma.sandboxChainTransaction.findMany({ orderBy: { seq: "asc" } });
      expect(log.length).toBeGreaterThan(logLength);
      expect(log.map((r) => r.seq)).toEqual(log.map((_r, i) => i + 1));
      const blocks = log.map((r) => r.blockNumber);
      expect([...blocks].sort((a, b) => a - b)).toEqual(blocks);
      expect(new Set(blocks).size).toBe(blocks.length);
    } finally {
      await second.close();
    }
  }, 120_000);
});

describe.runIf((process.env.TEST_DATABASE_URL ?? "").startsWith("postgres"))("two instances over one PostgreSQL database", () => {
  it("share one chain: each sees the other's deployments, and concurrent deployments interleave without a gap", async () => {
    const database = await createTestDatabase({ migrated: true });
    cleanups.push(() => database.drop());
    const a = await boot(database);
    const b = await boot(database);
    cleanups.push(
      () => a.close(),
      () => b.close(),
    );
    const key = await createKey(a, ["projects:write", "wallets:write"]);
    const onA = api(a.url, key);
    const onB = api(b.url, key);
    const tokenA = await launchToken(onA, { asset: "AAA", initialSupply: { to: TREASURY, amountMinor: "111" } });
    expect((await supplyOf(onB, tokenA.contractAddress)).valueMinor).toBe("111");
    const [x, y] = await Promise.all([
      launchToken(onA, { asset: "XXX", initialSupply: { to: TREASURY, amountMinor: "7" } }),
      launchToken(onB, { asset: "YYY", initialSupply: { to: TREASURY, amountMinor: "9" } }),
    ]);
    for (const call of [onA, onB]) {
      expect((await supplyOf(call, x.contractAddress)).valueMinor).toBe("7");
      expect((await supplyOf(call, y.contractAddress)).valueMinor).toBe("9");
    }
    const seqs = (await a.db.prisma.sandboxChainTransaction.findMany({ orderBy: { seq: "asc" }, select: { seq: true } })).map((r) => r.seq);
    expect(seqs).toEqual(seqs.map((_s, i) => i + 1));
  }, 120_000);
});
