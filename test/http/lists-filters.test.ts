// The filters of each list (paging, range, isolation and errors: lists.test.ts). A state filter partitions the list:
// each value lists exactly the items in that state, and together they list every item. Approval requests: the status
// filter answers what a GET of each request answers at that moment (`expired` is derived, never stored), and the list
// holds only the requests whose scope the key can read.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { flushDeferred, UnitOfWork } from "../../server/db/unit-of-work/index.ts";
import { createApprovalRequest } from "../../server/domain/approvals/create-approval-request.ts";
import { cardholderBody, programmeBody } from "../helpers/cards.ts";
import { deciderWithKey } from "../helpers/members.ts";
import { api, startTestServer, type TestServer } from "../helpers/test-server.ts";
import { connect, expireApproval, idem } from "../helpers/v2.ts";
import { BANK_TRANSFER, sepaTransfer } from "../system/bodies.ts";

type Call = ReturnType<typeof api>;
type Item = Record<string, string>;

const ORG = "org_list_filters";
const V2 = "/api/v2/agent";
const WALLETS = `${V2}/custody/wallets`;
const TRANSFERS = `${V2}/custody/transfers`;
const CLEAN = "0x52908400098527886E0F7030069857D2E4169EE7";

let server: TestServer;
let alice: Call;
let bob: Call;
let reader: Call;

/** Every item of a list (all pages). */
async function all(call: Call, path: string): Promise<Item[]> {
  const items: Item[] = [];
  let cursor: string | null = null;
  do {
    const res = await call("GET", `${path}${path.includes("?") ? "&" : "?"}limit=100${cursor ? `&startingAfter=${cursor}` : ""}`);
    expect(res.status, res.text).toBe(200);
    items.push(...res.json.data);
    cursor = res.json.nextCursor;
  } while (cursor);
  return items;
}

/** `param=value` lists exactly the items whose `field` is `value`, for every value, and the values cover the list. */
async function expectPartition(path: string, idField: string, param: string, values: string[], field = param) {
  const everything = await all(reader, path);
  const covered: string[] = [];
  for (const value of values) {
    const filtered = await all(reader, `${path}?${param}=${value}`);
    expect(filtered.map((i) => i[idField])).toEqual(everything.filter((i) => i[field] === value).map((i) => i[idField]));
    covered.push(...filtered.map((i) => i[idField] as string));
  }
  expect(covered.sort()).toEqual(everything.map((i) => i[idField]).sort());
  return everything;
}

const created = async (res: Promise<{ status: number; text: string; json: Item }>, status = 201) => {
  const answer = await res;
  expect(answer.status, answer.text).toBe(status);
  return answer.json;
};
const requestWallet = () => created(alice("POST", WALLETS, { label: "Filters", chain: "base", type: "mpc" }, idem()));
const approve = async (approvalRequestId: string) => created(bob("POST", `${V2}/approvals/${approvalRequestId}/approve`, {}), 200);
const activate = (wallet: Item) =>
  created(alice("POST", WALLETS, { custodyWalletId: wallet.custodyWalletId, approvalRequestId: wallet.approvalRequestId }, idem()), 200);
const expire = (approvalRequestId: string) => expireApproval(server, approvalRequestId);

beforeAll(async () => {
  server = await startTestServer();
  const key = async (scopes: string[], actor: string) =>
    api(server.url, (await server.createKey({ organizationId: ORG, scopes, actor })).key);
  alice = await key(["wallets:write", "payments:write", "cards:write", "projects:write"], "alice");
  bob = await deciderWithKey(server, ORG, (await server.createKey({ organizationId: ORG, scopes: ["wallets:write"], actor: "bob" })).key);
  reader = await key(["wallets:read", "payments:read", "cards:read", "projects:read"], "carol");
  await connect(server, { organizationId: ORG, category: "custody" });
});
afterAll(() => server?.close());

describe("GET /approvals", () => {
  it("?status= lists exactly what a GET of each request answers, expired ones included", async () => {
    const pending = await requestWallet();
    const approved = await requestWallet();
    await approve(approved.approvalRequestId as string);
    const rejected = await requestWallet();
    await created(bob("POST", `${V2}/approvals/${rejected.approvalRequestId}/reject`, { reason: "Not needed" }), 200);
    const expiredUndecided = await requestWallet();
    await expire(expiredUndecided.approvalRequestId as string);
    const expiredUnused = await requestWallet();
    await approve(expiredUnused.approvalRequestId as string);
    await expire(expiredUnused.approvalRequestId as string);
    // Used before its deadline passed: stays approved.
    const used = await requestWallet();
    await approve(used.approvalRequestId as string);
    await activate(used);
    await expire(used.approvalRequestId as string);

    const everything = await expectPartition(`${V2}/approvals`, "approvalRequestId", "status", [
      "pending",
      "approved",
      "rejected",
      "expired",
    ]);
    for (const item of everything) {
      const read = await reader("GET", `${V2}/approvals/${item.approvalRequestId}`);
      expect(read.json.status).toBe(item.status);
    }
    const statusOf = new Map(everything.map((i) => [i.approvalRequestId, i.status]));
    expect(statusOf.get(pending.approvalRequestId as string)).toBe("pending");
    expect(statusOf.get(approved.approvalRequestId as string)).toBe("approved");
    expect(statusOf.get(rejected.approvalRequestId as string)).toBe("rejected");
    expect(statusOf.get(expiredUndecided.approvalRequestId as string)).toBe("expired");
    expect(statusOf.get(expiredUnused.approvalRequestId as string)).toBe("expired");
    expect(statusOf.get(used.approvalRequestId as string)).toBe("approved");
  });

  it("lists only the requests whose scope the key can read", async () => {
    // An approval guarding a payments write, raised through the domain (the API raises wallets:write ones only today).
    const payments = await server.db.kysely.transaction().execute(async (tx) => {
      const uow = new UnitOfWork(tx, new Date());
      const auth = {
        apiKeyId: "key_lists",
        organizationId: ORG,
        environment: "sandbox" as const,
        scopes: ["payments:write"],
        actor: "dave",
      };
      const dto = await createApprovalRequest(uow, {
        auth,
        kind: "provider_operation",
        action: "providers.invoke:bank_transfer.create",
        scope: "payments:write",
        payload: { amount: "10.00" },
      });
      await flushDeferred(uow);
      return dto.approvalRequestId;
    });
    const wallets = (await requestWallet()).approvalRequestId as string;
    const listed = async (scopes: string[]) => {
      const call = api(server.url, (await server.createKey({ organizationId: ORG, scopes, actor: "erin" })).key);
      return (await all(call, `${V2}/approvals`)).map((i) => i.approvalRequestId);
    };
    const paymentsOnly = await listed(["payments:read"]);
    expect(paymentsOnly).toEqual([payments]);
    const walletsOnly = await listed(["wallets:write"]);
    expect(walletsOnly).toContain(wallets);
    expect(walletsOnly).not.toContain(payments);
    expect(await listed(["cards:read"])).toEqual([]);
    expect((await listed(["wallets:read", "payments:write"])).sort()).toEqual([...walletsOnly, payments].sort());
    // The cursor of a request the key cannot read is not a cursor of its list.
    const paymentsReader = api(server.url, (await server.createKey({ organizationId: ORG, scopes: ["payments:read"] })).key);
    const res = await paymentsReader("GET", `${V2}/approvals?startingAfter=${wallets}`);
    expect(res.status).toBe(400);
    expect(res.json.errors.map((e: { path: string }) => e.path)).toEqual(["/query/startingAfter"]);
  });
});

describe("GET /payments/bank-transfer", () => {
  it("?status= partitions the transfers", async () => {
    const ids: string[] = [];
    for (const reference of ["F-1", "F-2", "F-3"])
      ids.push((await created(alice("POST", BANK_TRANSFER, sepaTransfer(reference), idem()))).id as string);
    const cancel = { transferId: ids[0], senderJurisdiction: "DE", receiverJurisdiction: "FR" };
    await created(alice("POST", `${BANK_TRANSFER}/cancel`, cancel, idem()), 200);
    const everything = await expectPartition(BANK_TRANSFER, "id", "status", [
      "pending",
      "processing",
      "completed",
      "failed",
      "returned",
      "cancelled",
    ]);
    expect(everything.filter((t) => t.status === "cancelled").map((t) => t.id)).toEqual([ids[0]]);
  });
});

describe("GET /custody/wallets and /custody/transfers", () => {
  it("?status= partitions the wallets", async () => {
    await requestWallet();
    const rejected = await requestWallet();
    await created(bob("POST", `${V2}/approvals/${rejected.approvalRequestId}/reject`, {}), 200);
    await activate(rejected);
    const everything = await expectPartition(WALLETS, "custodyWalletId", "status", ["pending_approval", "active", "rejected"]);
    expect(new Set(everything.map((w) => w.status))).toEqual(new Set(["pending_approval", "active", "rejected"]));
  });

  it("?walletId= and ?status= select a wallet's transfers in a state", async () => {
    const wallets: string[] = [];
    for (let i = 0; i < 2; i++) {
      const requested = await requestWallet();
      await approve(requested.approvalRequestId as string);
      wallets.push((await activate(requested)).custodyWalletId as string);
    }
    const transfer = (walletId: string) =>
      created(alice("POST", TRANSFERS, { walletId, destination: CLEAN, asset: "USDC", amountMinor: "1000000" }, idem()));
    const first = [await transfer(wallets[0] as string), await transfer(wallets[0] as string)];
    const second = await transfer(wallets[1] as string);
    await approve(second.approvalRequestId as string);
    await created(
      alice("POST", TRANSFERS, { custodyTransferId: second.custodyTransferId, approvalRequestId: second.approvalRequestId }, idem()),
      200,
    );

    const ids = (items: Item[]) => items.map((t) => t.custodyTransferId);
    expect(ids(await all(reader, `${TRANSFERS}?walletId=${wallets[0]}`))).toEqual(ids(first).reverse());
    expect(ids(await all(reader, `${TRANSFERS}?walletId=${wallets[1]}`))).toEqual([second.custodyTransferId]);
    expect(await all(reader, `${TRANSFERS}?walletId=${wallets[1]}&status=pending_approval`)).toEqual([]);
    expect(ids(await all(reader, `${TRANSFERS}?walletId=${wallets[1]}&status=submitted`))).toEqual([second.custodyTransferId]);
    expect(await all(reader, `${TRANSFERS}?walletId=cw_UnknownUnknownUnknown12`)).toEqual([]);
    await expectPartition(TRANSFERS, "custodyTransferId", "status", [
      "pending_approval",
      "approved",
      "submitted",
      "completed",
      "failed",
      "rejected",
      "cancelled",
    ]);
  });
});

describe("GET /cards and /cards/programmes", () => {
  it("?programmeId= and ?status= select a programme's cards in a state", async () => {
    const programme = async () => (await created(alice("POST", `${V2}/cards/programmes`, programmeBody(), idem()))).programmeId as string;
    const issue = async (programmeId: string) =>
      (await created(alice("POST", `${V2}/cards/issue`, { programmeId, cardholder: cardholderBody() }, idem()))).cardId as string;
    const [p1, p2] = [await programme(), await programme()];
    const cards1 = [await issue(p1), await issue(p1)];
    const cards2 = [await issue(p2)];
    await created(alice("POST", `${V2}/cards/${cards1[0]}/freeze`, { reason: "Lost" }, idem()), 200);

    const ids = (items: Item[]) => items.map((c) => c.cardId);
    expect(ids(await all(reader, `${V2}/cards?programmeId=${p1}`))).toEqual([...cards1].reverse());
    expect(ids(await all(reader, `${V2}/cards?programmeId=${p2}`))).toEqual(cards2);
    expect(ids(await all(reader, `${V2}/cards?programmeId=${p1}&status=frozen`))).toEqual([cards1[0]]);
    await expectPartition(`${V2}/cards`, "cardId", "status", ["active", "frozen", "deactivated"]);
    // Each card as GET /cards/{cardId} shows it (its ledger balance included).
    for (const card of await all(reader, `${V2}/cards`)) {
      expect((await reader("GET", `${V2}/cards/${card.cardId}`)).json).toEqual(card);
    }
    const programmes = (await all(reader, `${V2}/cards/programmes`)).map((p) => p.programmeId);
    expect(programmes.slice(0, 2)).toEqual([p2, p1]);
  });
});

describe("GET /contracts", () => {
  it("?stage= partitions the projects, listed as summaries", async () => {
    const generate = async () =>
      (await created(alice("POST", `${V2}/contracts/generate`, { asset: "FLTR", network: "sandbox" }, idem()))).projectId as string;
    const compiled = await generate();
    const generated = await generate();
    expect((await alice("POST", `${V2}/contracts/${compiled}/compile`, undefined, idem())).status).toBe(200);
    const everything = await expectPartition(`${V2}/contracts`, "projectId", "stage", [
      "generated",
      "compiled",
      "validated",
      "simulated",
      "deployed",
      "verified",
      "launched",
    ]);
    expect(everything.map((p) => [p.projectId, p.stage])).toEqual([
      [generated, "generated"],
      [compiled, "compiled"],
    ]);
    const { source, stages, ...summary } = (await reader("GET", `${V2}/contracts/${compiled}`)).json;
    expect(source).toBeTypeOf("string");
    expect(stages).toHaveLength(7);
    expect(everything[1]).toEqual(summary);
  });
});
