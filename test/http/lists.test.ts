// Every cursor list of a resource, table-driven: each pages through 250+ items without a gap or a duplicate while
// items are being created concurrently, in order; costs a fixed number of statements per page; filters by the
// createdAt range; answers 400 naming the field for a malformed or foreign cursor or range, 403 without its read scope;
// and never shows another organization's or the other environment's rows. Items are created through the API (in
// parallel); the rows of the other tenants are copies of the organization's own rows written with SQL, so each list is
// shown to list them for their own tenant (the isolation check could fail). Filters of each resource:
// lists-filters.test.ts.
import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "../../server/lib/ids.ts";
import { cardholderBody, programmeBody } from "../helpers/cards.ts";
import { HOLDER, launchToken, SIGNER } from "../helpers/contracts.ts";
import { deciderWithKey, joinMember } from "../helpers/members.ts";
import { api, startTestServer, type TestServer } from "../helpers/test-server.ts";
import { connect, idem } from "../helpers/v2.ts";
import { BANK_TRANSFER, sepaTransfer } from "../system/bodies.ts";

type Call = ReturnType<typeof api>;

const ORG = "org_lists";
const OTHER_ORG = "org_lists_other";
const ITEMS = 250;
const PAGE = 30;
const CLEAN = "0x52908400098527886E0F7030069857D2E4169EE7";
const V2 = "/api/v2/agent";

let server: TestServer;
let alice: Call;
let bob: Call;
let walletId: string;
let programmeId: string;
let issuerId: string;
let ownerSession: Call;

interface ListCase {
  name: string;
  path: string;
  table: string;
  /** Rows of the table that are items of the list (cards and programmes whose issuer call is unconfirmed are not). */
  listed?: string;
  /** The DTO field holding the id. */
  idField: string;
  /** Creates one item of ORG through the API. */
  create: () => Promise<unknown>;
  /** Scopes that may list it, and scopes that may not (none for approvals: they leave out what the key cannot read). */
  readScopes: string[];
  otherScopes?: string[];
  /** Statements of one page after a cursor, the key's copy warm. */
  statements: number;
  /** Production answers 424 PROVIDER_NOT_CONNECTED: no reviewed card issuer can serve production yet (the simulator
   * never does), and every card endpoint fails closed without one. */
  productionClosed?: boolean;
  /** A list of the organization's people (members, API keys): read with an owner's session, whatever the environment;
   * its isolation is by organization only. */
  session?: true;
}

async function created(res: Promise<{ status: number; text: string }>, status = 201) {
  const answer = await res;
  expect(answer.status, answer.text).toBe(status);
}

const CASES: ListCase[] = [
  {
    name: "approval requests",
    path: `${V2}/approvals`,
    table: "ApprovalRequest",
    idField: "approvalRequestId",
    // A custody wallet request raises an approval request (scope wallets:write).
    create: () => created(alice("POST", `${V2}/custody/wallets`, { label: "Lists", chain: "base", type: "mpc" }, idem())),
    readScopes: ["wallets:read"],
    statements: 2,
  },
  {
    name: "bank transfers",
    path: `${V2}/payments/bank-transfer`,
    table: "BankTransfer",
    idField: "id",
    create: () => created(alice("POST", BANK_TRANSFER, sepaTransfer(`INV-${randomUUID().slice(0, 8)}`), idem())),
    readScopes: ["payments:read"],
    otherScopes: ["wallets:write"],
    statements: 2,
  },
  {
    name: "custody wallets",
    path: `${V2}/custody/wallets`,
    table: "CustodyWallet",
    idField: "custodyWalletId",
    create: () => created(alice("POST", `${V2}/custody/wallets`, { label: "Lists", chain: "base", type: "mpc" }, idem())),
    readScopes: ["wallets:read"],
    otherScopes: ["payments:write"],
    statements: 2,
  },
  {
    name: "custody transfers",
    path: `${V2}/custody/transfers`,
    table: "CustodyTransfer",
    idField: "custodyTransferId",
    create: () =>
      created(alice("POST", `${V2}/custody/transfers`, { walletId, destination: CLEAN, asset: "USDC", amountMinor: "1000000" }, idem())),
    readScopes: ["wallets:read"],
    otherScopes: ["cards:write"],
    statements: 2,
  },
  {
    name: "cards",
    path: `${V2}/cards`,
    table: "Card",
    listed: "pending",
    idField: "cardId",
    create: () => created(alice("POST", `${V2}/cards/issue`, { programmeId, cardholder: cardholderBody() }, idem())),
    readScopes: ["cards:read"],
    otherScopes: ["wallets:write"],
    // The page, and the ledger balances of its cards.
    statements: 3,
    productionClosed: true,
  },
  {
    name: "card programmes",
    path: `${V2}/cards/programmes`,
    table: "CardProgramme",
    listed: "pending",
    idField: "programmeId",
    create: () => created(alice("POST", `${V2}/cards/programmes`, programmeBody(), idem())),
    readScopes: ["cards:read"],
    otherScopes: ["projects:write"],
    statements: 2,
    productionClosed: true,
  },
  {
    name: "contract projects",
    path: `${V2}/contracts`,
    table: "ContractProject",
    idField: "projectId",
    create: () => created(alice("POST", `${V2}/contracts/generate`, { asset: "LSTS", network: "sandbox" }, idem())),
    readScopes: ["projects:read"],
    otherScopes: ["cards:write"],
    statements: 2,
  },
  {
    name: "issuance requests",
    path: `${V2}/treasury/issuance-requests`,
    table: "IssuanceRequest",
    idField: "issuanceRequestId",
    create: () =>
      created(
        alice(
          "POST",
          `${V2}/treasury/mint`,
          { issuerId, amountMinor: "1000000", signerAddress: SIGNER, to: HOLDER, reason: "Lists" },
          idem(),
        ),
      ),
    readScopes: ["wallets:read"],
    otherScopes: ["cards:write"],
    // The page, and `count` across pages.
    statements: 3,
  },
  {
    name: "members",
    path: `${V2}/members`,
    table: "Member",
    idField: "id",
    create: () => joinMember(server, ORG, { role: "viewer" }),
    readScopes: [],
    // The session, the cursor's row and the page.
    statements: 3,
    session: true,
  },
  {
    name: "API keys",
    path: `${V2}/api-keys`,
    table: "ApiKey",
    idField: "id",
    create: async () => {
      const res = await ownerSession("POST", `${V2}/api-keys`, { environment: "sandbox", scopes: ["wallets:read"], label: "Lists" });
      expect(res.status, res.text).toBe(201);
    },
    readScopes: [],
    statements: 3,
    session: true,
  },
];

/** Runs `work` `count` times, `parallel` at a time. */
async function times(count: number, parallel: number, work: () => Promise<unknown>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < count) {
        next++;
        await work();
      }
    }),
  );
}

/** Ids of the list's items of a tenant, as stored. */
async function storedIds(c: ListCase, organizationId: string, environment: string): Promise<string[]> {
  if (c.session) {
    const rows = await sql<{ id: string }>`select id from ${sql.table(c.table)} where "organizationId" = ${organizationId}
      ${c.table === "Member" ? sql`and "removedAt" is null` : sql``}`.execute(server.db.kysely);
    return rows.rows.map((r) => r.id);
  }
  const rows = await sql<{ id: string }>`select id from ${sql.table(c.table)} where "organizationId" = ${organizationId}
    and environment = ${environment} ${c.listed ? sql`and status <> ${c.listed}` : sql``}`.execute(server.db.kysely);
  return rows.rows.map((r) => r.id);
}

/** A copy of one of ORG's rows of `table` under another tenant, with a new id (of the same kind) and `overrides`. */
async function copyRow(table: string, id: string, tenant: { organizationId: string; environment: string }, overrides = {}) {
  const copy = newId(id.slice(0, id.indexOf("_")));
  const changes = JSON.stringify({ ...overrides, id: copy, ...tenant });
  const t = sql.table(table);
  await sql`insert into ${t} select (jsonb_populate_record(null::${t}, to_jsonb(r) || ${changes}::jsonb)).* from ${t} r where r.id = ${id}`.execute(
    server.db.kysely,
  );
  return copy;
}

/** A copy of one of the list's items under another tenant (an issuance request with a copy of its approval request,
 * which it owns alone). */
async function copyItem(c: ListCase, id: string, tenant: { organizationId: string; environment: string }): Promise<string> {
  if (c.table !== "IssuanceRequest") return copyRow(c.table, id, tenant);
  const { approvalRequestId } = await server.db.kysely
    .selectFrom("IssuanceRequest")
    .select("approvalRequestId")
    .where("id", "=", id)
    .executeTakeFirstOrThrow();
  return copyRow(c.table, id, tenant, { approvalRequestId: await copyRow("ApprovalRequest", approvalRequestId, tenant) });
}

const keyOf = async (scopes: string[], organizationId = ORG, environment: "sandbox" | "production" = "sandbox") =>
  api(server.url, (await server.createKey({ organizationId, environment, scopes, actor: `reader-${randomUUID()}` })).key);

beforeAll(async () => {
  server = await startTestServer();
  alice = api(
    server.url,
    (
      await server.createKey({
        organizationId: ORG,
        scopes: ["wallets:write", "payments:write", "cards:write", "projects:write"],
        actor: "alice",
      })
    ).key,
  );
  bob = await deciderWithKey(server, ORG, (await server.createKey({ organizationId: ORG, scopes: ["wallets:write"], actor: "bob" })).key);
  await server.createKey({ organizationId: OTHER_ORG, scopes: ["wallets:read"] });
  await connect(server, { organizationId: ORG, category: "custody" });
  ownerSession = (await joinMember(server, ORG, { role: "owner" })).call;
  // What the creators need: an active custody wallet, a card programme, a launched token.
  const requested = await alice("POST", `${V2}/custody/wallets`, { label: "Source", chain: "base", type: "mpc" }, idem());
  expect((await bob("POST", `${V2}/approvals/${requested.json.approvalRequestId}/approve`, {})).status).toBe(200);
  const active = await alice(
    "POST",
    `${V2}/custody/wallets`,
    { custodyWalletId: requested.json.custodyWalletId, approvalRequestId: requested.json.approvalRequestId },
    idem(),
  );
  expect(active.status, active.text).toBe(200);
  walletId = active.json.custodyWalletId;
  const programme = await alice("POST", `${V2}/cards/programmes`, programmeBody(), idem());
  programmeId = programme.json.programmeId;
  issuerId = (await launchToken(alice)).issuerId;
  // Every list gets ITEMS items; approval requests come with the custody wallets and transfers (their requests raise
  // one each), so only what they lack is created for them.
  const own = CASES.filter((c) => c.table !== "ApprovalRequest");
  await Promise.all(own.map((c) => times(ITEMS, 2, c.create)));
  for (const c of CASES) await times(ITEMS - (await storedIds(c, ORG, "sandbox")).length, 4, c.create);
}, 600_000);

afterAll(() => server?.close());

describe.each(CASES)("GET $path ($name)", (c) => {
  let reader: Call;
  const ids = (res: { json: { data: Array<Record<string, string>> } }) => res.json.data.map((item) => item[c.idField] as string);

  beforeAll(async () => {
    reader = c.session ? ownerSession : await keyOf(c.readScopes);
  });

  it(`pages through ${ITEMS}+ items newest first, without a gap or a duplicate, while items are created`, async () => {
    const before = await storedIds(c, ORG, "sandbox");
    expect(before.length).toBeGreaterThanOrEqual(ITEMS);
    const seen: Array<{ id: string; createdAt: string }> = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      // Each page is read while one more item is being created.
      const [res]: [Awaited<ReturnType<Call>>, unknown] = await Promise.all([
        reader("GET", `${c.path}?limit=${PAGE}${cursor ? `&startingAfter=${cursor}` : ""}`),
        c.create(),
      ]);
      expect(res.status, res.text).toBe(200);
      expect(res.json.data.length).toBeLessThanOrEqual(PAGE);
      seen.push(...res.json.data.map((item: Record<string, string>) => ({ id: item[c.idField], createdAt: item.createdAt })));
      cursor = res.json.nextCursor;
      expect(cursor).toBe(res.json.hasMore ? ids(res).at(-1) : null);
      pages++;
    } while (cursor);
    const seenIds = seen.map((item) => item.id);
    expect(new Set(seenIds).size).toBe(seenIds.length);
    expect(seenIds).toEqual(expect.arrayContaining(before));
    expect(pages).toBeGreaterThanOrEqual(Math.ceil(before.length / PAGE));
    const times = seen.map((item) => Date.parse(item.createdAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    // Every item is ORG's: what was there before, or created meanwhile.
    const after = new Set(await storedIds(c, ORG, "sandbox"));
    for (const id of seenIds) expect(after.has(id)).toBe(true);
  }, 120_000);

  it("costs a fixed number of statements per page after a cursor", async () => {
    // Every copy in memory (the key, the provider connection) is read afresh by the first page, so none reaches its
    // 60 s age during the count: a copy warmed by the long test above could, on a slow machine (read one statement more).
    server.db.readCache.clear();
    const first = await reader("GET", `${c.path}?limit=5`);
    expect(first.status).toBe(200);
    // A key's first use in a minute writes its "last used" 200 ms later, off the request path (server/middleware/
    // key-usage.ts): written before the count starts, so it never lands in the page's statements.
    await server.keyUsage.flush();
    const before = server.db.statements.snapshot();
    const missesBefore = server.db.readCache.misses;
    const res = await reader("GET", `${c.path}?limit=100&startingAfter=${first.json.nextCursor}`);
    expect(res.status).toBe(200);
    expect(res.json.data).toHaveLength(100);
    expect(server.db.statements.snapshot().statements - before.statements).toBe(c.statements);
    expect(server.db.readCache.misses - missesBefore).toBe(0);
  });

  it("filters by createdAt (exclusive bounds)", async () => {
    const page = (await reader("GET", `${c.path}?limit=100`)).json.data as Array<Record<string, string>>;
    const middle = page[50] as Record<string, string>;
    const at = Date.parse(middle.createdAt as string);
    const iso = (ms: number) => encodeURIComponent(new Date(ms).toISOString());
    const around = await reader("GET", `${c.path}?limit=100&createdAfter=${iso(at - 1)}&createdBefore=${iso(at + 1)}`);
    expect(around.status, around.text).toBe(200);
    expect(ids(around)).toContain(middle[c.idField]);
    for (const item of around.json.data) expect(item.createdAt).toBe(middle.createdAt);
    const exclusive = await reader("GET", `${c.path}?createdAfter=${iso(at)}&createdBefore=${iso(at)}`);
    expect(exclusive.json.data).toEqual([]);
    const older = await reader("GET", `${c.path}?limit=100&createdBefore=${iso(at)}`);
    for (const item of older.json.data) expect(Date.parse(item.createdAt)).toBeLessThan(at);
    const olderInPage = page.filter((item) => Date.parse(item.createdAt as string) < at).map((item) => item[c.idField]);
    expect(olderInPage.length).toBeGreaterThan(0);
    expect(ids(older).slice(0, olderInPage.length)).toEqual(olderInPage);
  });

  it.each([
    ["startingAfter", "not-a-cursor", "/query/startingAfter"],
    ["startingAfter", "zz_UnknownUnknownUnknown1", "/query/startingAfter"],
    ["createdAfter", "yesterday", "/query/createdAfter"],
    ["createdBefore", "2026-13-01T00:00:00Z", "/query/createdBefore"],
    ["limit", "0", "/query/limit"],
    ["limit", "101", "/query/limit"],
  ])("400 VALIDATION_ERROR for %s=%s, naming the field", async (name, value, path) => {
    const res = await reader("GET", `${c.path}?${name}=${encodeURIComponent(value)}`);
    expect(res.status, res.text).toBe(400);
    expect(res.json.code).toBe("VALIDATION_ERROR");
    expect(res.json.errors.map((e: { path: string }) => e.path)).toContain(path);
  });

  it.runIf(c.otherScopes !== undefined)("403 FORBIDDEN without the resource's read scope", async () => {
    const res = await (await keyOf(c.otherScopes ?? []))("GET", c.path);
    expect(res.status, res.text).toBe(403);
    expect(res.json.code).toBe("FORBIDDEN");
  });

  it.runIf(c.session)("never lists another organization's people, nor pages from their cursors", async () => {
    const otherOwner = await joinMember(server, OTHER_ORG, { role: "owner" });
    if (c.table === "ApiKey")
      await otherOwner.call("POST", `${V2}/api-keys`, { environment: "sandbox", scopes: ["wallets:read"], label: "Other" });
    const theirs = (await otherOwner.call("GET", `${c.path}?limit=100`)).json.data.map((item: Record<string, string>) => item[c.idField]);
    expect(theirs.length).toBeGreaterThan(0);
    const mine: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await reader("GET", `${c.path}?limit=100${cursor ? `&startingAfter=${cursor}` : ""}`);
      mine.push(...ids(res));
      cursor = res.json.nextCursor;
    } while (cursor);
    for (const id of theirs) expect(mine).not.toContain(id);
    const foreign = await reader("GET", `${c.path}?startingAfter=${theirs[0]}`);
    expect(foreign.status, foreign.text).toBe(400);
    expect(foreign.json.errors.map((e: { path: string }) => e.path)).toEqual(["/query/startingAfter"]);
  });

  it.runIf(!c.session)("never lists another organization's or the other environment's rows, nor pages from their cursors", async () => {
    const [own] = await storedIds(c, ORG, "sandbox");
    const other = await copyItem(c, own as string, { organizationId: OTHER_ORG, environment: "sandbox" });
    const production = await copyItem(c, own as string, { organizationId: ORG, environment: "production" });
    const everything = async (call: Call) => {
      const all: string[] = [];
      let cursor: string | null = null;
      do {
        const res = await call("GET", `${c.path}?limit=100${cursor ? `&startingAfter=${cursor}` : ""}`);
        expect(res.status, res.text).toBe(200);
        all.push(...ids(res));
        cursor = res.json.nextCursor;
      } while (cursor);
      return all;
    };
    const mine = await everything(reader);
    expect(mine).toContain(own);
    expect(mine).not.toContain(other);
    expect(mine).not.toContain(production);
    // The copies are listed for their own tenant, so the checks above could fail.
    const otherReader = await keyOf(c.readScopes, OTHER_ORG);
    const productionReader = await keyOf(c.readScopes, ORG, "production");
    expect(await everything(otherReader)).toEqual([other]);
    if (c.productionClosed) {
      const closed = await productionReader("GET", c.path);
      expect(closed.status, closed.text).toBe(424);
      expect(closed.json.code).toBe("PROVIDER_NOT_CONNECTED");
    } else {
      expect(await everything(productionReader)).toEqual([production]);
    }
    const foreignCursors: (readonly [Call, string])[] = [
      [otherReader, own as string],
      ...(c.productionClosed ? [] : [[productionReader, own as string] as const]),
      [reader, other],
      [reader, production],
    ];
    for (const [call, foreign] of foreignCursors) {
      const res = await call("GET", `${c.path}?startingAfter=${foreign}`);
      expect(res.status, res.text).toBe(400);
      expect(res.json.errors.map((e: { path: string }) => e.path)).toEqual(["/query/startingAfter"]);
    }
  });
});
