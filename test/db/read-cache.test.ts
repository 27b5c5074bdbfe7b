// API keys, provider connections and organization settings are read once and then answered from memory
// (server/db/cached-read.ts), yet an operator's change applies from the very next request — on this instance (both
// databases) and on another instance of the same PostgreSQL database (two apps, each with its own pool and change feed).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, startTestServer, type TestServer } from "../helpers/test-server.ts";

const ORG = "org_cache";
const INVOKE = "/api/v2/agent/providers/invoke";
const EVALUATE = "/api/v2/agent/policy/evaluate";
// Custody never falls back to its simulator (the fx quote would, in the sandbox): without a reviewed connection
// providers/invoke answers 404 NOT_FOUND (its own code list has no 424), with one 200.
const BALANCE = {
  providerSlug: "simulator",
  category: "custody",
  operation: "get_balance",
  input: { walletId: "cw_cache" },
};

let a: TestServer;

beforeAll(async () => {
  a = await startTestServer();
});
afterAll(() => a?.close());

/** Statements `server` sent while `request` ran. */
async function statementsOf(server: TestServer, request: () => Promise<{ status: number }>, status: number): Promise<number> {
  const before = server.db.statements.statements;
  const res = await request();
  expect(res.status).toBe(status);
  return server.db.statements.statements - before;
}

const admin = (server: TestServer) => (method: string, path: string, body?: unknown) =>
  api(server.url, server.adminToken)(method, path, body);

async function newKey(server: TestServer, scopes = ["wallets:read"], organizationId = ORG) {
  return server.createKey({ organizationId, scopes });
}

async function addConnection(server: TestServer, organizationId: string): Promise<string> {
  const res = await admin(server)("POST", "/api/admin/connections", {
    organizationId,
    environment: "sandbox",
    category: "custody",
    providerSlug: "simulator",
    reviewed: true,
  });
  expect(res.status, res.text).toBe(201);
  return res.json.id;
}

/** Checks `server`'s copy is what answers (no statement for the lookup) before the change under test. */
async function expectServedFromMemory(server: TestServer, request: () => Promise<{ status: number }>, status: number) {
  await request();
  const hits = server.db.readCache.hits;
  await statementsOf(server, request, status);
  expect(server.db.readCache.hits).toBeGreaterThan(hits);
}

/** The changes one instance makes and another (or the same) must see at its very next request. */
function changesSeenBy(changer: () => TestServer, seer: () => TestServer, org: string) {
  it("a revoked key is refused at the very next request", async () => {
    for (let i = 0; i < 5; i++) {
      const { id, key } = await newKey(changer(), ["wallets:read"], org);
      const call = api(seer().url, key);
      await expectServedFromMemory(seer(), () => call("GET", "/api/v1/wallets"), 200);
      const revoked = await admin(changer())("DELETE", `/api/admin/keys/${id}`);
      expect(revoked.status).toBe(200);
      const next = await call("GET", "/api/v1/wallets");
      expect(next.status).toBe(401);
    }
  });

  it("a connection added or removed applies at the very next request (no connection is remembered too)", async () => {
    const custodyOrg = `${org}_custody`;
    const { key } = await newKey(changer(), ["wallets:write"], custodyOrg);
    const call = api(seer().url, key);
    await expectServedFromMemory(seer(), () => call("POST", INVOKE, BALANCE), 404);
    const connectionId = await addConnection(changer(), custodyOrg);
    await expectServedFromMemory(seer(), () => call("POST", INVOKE, BALANCE), 200);
    expect((await admin(changer())("DELETE", `/api/admin/connections/${connectionId}`)).status).toBe(204);
    const next = await call("POST", INVOKE, BALANCE);
    expect(next.status).toBe(404);
    expect(next.json.code).toBe("NOT_FOUND");
  });

  it("a settings update applies at the very next request", async () => {
    const policyOrg = `${org}_policy`;
    const { key } = await newKey(changer(), ["compliance:write"], policyOrg);
    const call = api(seer().url, key);
    const body = { amount: "500.00", currency: "USD" };
    await expectServedFromMemory(seer(), () => call("POST", EVALUATE, body), 200);
    expect((await call("POST", EVALUATE, body)).json.decision).toBe("allow");
    const put = await admin(changer())("PUT", `/api/admin/organizations/${policyOrg}/settings`, {
      policy: { blockedJurisdictions: [], maxAmountUsd: "100" },
    });
    expect(put.status, put.text).toBe(200);
    const next = await call("POST", EVALUATE, body);
    expect(next.json.decision).toBe("block");
    expect(next.json.policy.maxAmountUsd).toBe("100");
  });
}

describe("one instance", () => {
  it("a key's second request reads no key from the database", async () => {
    const { key } = await newKey(a);
    const call = api(a.url, key);
    // A key's first use also writes its "last used" 200 ms later (server/middleware/key-usage.ts; a second use within the
    // minute writes nothing): each count waits for that write, so it falls in the cold count whatever the machine's speed.
    const counted = async () => {
      const res = await call("GET", "/api/v1/wallets");
      await a.keyUsage.flush();
      return res;
    };
    const cold = await statementsOf(a, counted, 200);
    const warm = await statementsOf(a, counted, 200);
    // One key read and the first use's "last used" write fewer.
    expect(warm).toBe(cold - 2);
  });

  it("a change made without the admin API (SQL) drops the copies too", async () => {
    const { id, key } = await newKey(a);
    const call = api(a.url, key);
    await expectServedFromMemory(a, () => call("GET", "/api/v1/wallets"), 200);
    await a.db.prisma.$executeRaw`UPDATE "ApiKey" SET "revokedAt" = now() WHERE "id" = ${id}`;
    await a.db.changes.barrier();
    expect((await call("GET", "/api/v1/wallets")).status).toBe(401);
  });

  changesSeenBy(
    () => a,
    () => a,
    "org_cache_one",
  );
});

describe.runIf(process.env.TEST_DATABASE_URL?.startsWith("postgres"))("two instances on one PostgreSQL database", () => {
  let b: TestServer;
  beforeAll(async () => {
    b = await startTestServer({ sameDatabaseAs: a });
  });
  afterAll(() => b?.close());

  changesSeenBy(
    () => a,
    () => b,
    "org_cache_two",
  );

  it("a revocation answers only after the other instance dropped its copy, also under load", async () => {
    const { id, key } = await newKey(a, ["wallets:read"], "org_cache_load");
    const call = api(b.url, key);
    await expectServedFromMemory(b, () => call("GET", "/api/v1/wallets"), 200);
    let revokedAt = 0;
    const afterRevocation: number[] = [];
    let stop = false;
    // Requests on B keep going while A revokes; every one sent after the revocation answered must be refused.
    const load = Promise.all(
      Array.from({ length: 8 }, async () => {
        while (!stop) {
          const sentAt = Date.now();
          const res = await call("GET", "/api/v1/wallets");
          if (revokedAt && sentAt > revokedAt) afterRevocation.push(res.status);
        }
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await admin(a)("DELETE", `/api/admin/keys/${id}`)).status).toBe(200);
    revokedAt = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 300));
    stop = true;
    await load;
    expect(afterRevocation.length).toBeGreaterThan(0);
    expect(new Set(afterRevocation)).toEqual(new Set([401]));
  });
});
