// Four-eyes approval requests: GET / approve / reject over HTTP, and the domain functions other modules call
// (createApprovalRequest, consumeApproval) inside real transactions on the same database.
import { createHash, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuthContext, Environment } from "../../server/context.ts";
import { runUnitOfWork, type UnitOfWork } from "../../server/db/unit-of-work/index.ts";
import { APPROVAL_TTL_HOURS } from "../../server/domain/approvals/approval-dto.ts";
import { consumeApproval } from "../../server/domain/approvals/consume-approval.ts";
import { type CreateApprovalRequestOptions, createApprovalRequest } from "../../server/domain/approvals/create-approval-request.ts";
import { canonicalJson } from "../../server/idempotency/idempotency-key.ts";
import { deciderWithKey, type JoinedMember, joinMember, type Role } from "../helpers/members.ts";
import { api, startTestServer, type TestServer } from "../helpers/test-server.ts";

const ORG = "org_apr";
const ACTION = "providers.invoke:custody.create_transfer";
const PAYLOAD = {
  providerSlug: "simulator",
  category: "custody",
  operation: "create_transfer",
  input: {
    walletId: "cw_7Hk2Mn5Pq8Rs1Tv4Wx6Yz9",
    destination: "0x52908400098527886E0F7030069857D2E4169EE7",
    asset: "USDC",
    amountMinor: "2500000000",
  },
};

interface Actor {
  auth: AuthContext;
  call: ReturnType<typeof api>;
  /** The member deciding for this actor, when it is a person. */
  memberId?: string;
}

let server: TestServer;
let requester: Actor;
let requesterOtherKey: Actor;
let requesterPerson: JoinedMember;
let alice: Actor;
let bob: Actor;
let reader: Actor;
let paymentsOnly: Actor;
let otherOrg: Actor;
let production: Actor;

/** A key of an actor; with `person`, approving and rejecting go through the session of a member of that email (only
 * people decide since issue 24; test/helpers/members.ts). */
async function actor(
  options: { organizationId?: string; environment?: Environment; scopes: string[]; actor: string },
  person?: { role: Role },
): Promise<Actor> {
  const created = await server.createKey({ organizationId: ORG, ...options });
  const k = await server.db.prisma.apiKey.findUniqueOrThrow({ where: { id: created.id } });
  const organizationId = options.organizationId ?? ORG;
  const call = person
    ? await deciderWithKey(server, organizationId, created.key, {
        role: person.role,
        email: options.actor,
        environment: options.environment,
      })
    : api(server.url, created.key);
  return {
    auth: { apiKeyId: k.id, organizationId: k.organizationId, environment: k.environment as Environment, scopes: k.scopes, actor: k.actor },
    call,
    memberId: "member" in call ? (call.member as JoinedMember).id : undefined,
  };
}

/** The requester: a member whose keys raise the approval requests (so each request records the member behind it). */
async function requesterKeys(): Promise<[Actor, Actor, JoinedMember]> {
  const person = await joinMember(server, ORG, { role: "owner", secondFactor: true, email: "treasury-bot@acme.example" });
  const keys: Actor[] = [];
  for (const label of ["Treasury bot", "Treasury bot (spare)"]) {
    const created = await person.call("POST", "/api/v2/agent/api-keys", { environment: "sandbox", scopes: ["wallets:write"], label });
    keys.push({
      auth: {
        apiKeyId: created.json.id,
        organizationId: ORG,
        environment: "sandbox",
        scopes: ["wallets:write"],
        actor: person.email,
        memberId: person.id,
      },
      call: api(server.url, created.json.secret),
    });
  }
  return [keys[0] as Actor, keys[1] as Actor, person];
}

/** Runs `work` in a unit of work of its own (no Idempotency-Key) and returns its result as the response body. */
async function inUnitOfWork<T>(work: (uow: UnitOfWork) => Promise<T>): Promise<T> {
  const sent = await runUnitOfWork(
    { db: server.db.kysely, ttlHours: 24, lockSeconds: 30, renderError: () => ({ contentType: "application/json", body: null }) },
    async (uow) => ({ status: 200, body: await work(uow) }),
  );
  return JSON.parse(sent.body) as T;
}

function request(overrides: Partial<CreateApprovalRequestOptions> = {}) {
  return inUnitOfWork((uow) =>
    createApprovalRequest(uow, {
      auth: requester.auth,
      kind: "provider_operation",
      action: ACTION,
      scope: "wallets:write",
      payload: PAYLOAD,
      ...overrides,
    }),
  );
}

function consume(by: Actor, approvalRequestId: string, action = ACTION, payload: unknown = PAYLOAD) {
  return inUnitOfWork((uow) => consumeApproval(uow, { auth: by.auth, approvalRequestId, action, payload }));
}

const path = (id: string, verb?: "approve" | "reject") => `/api/v2/agent/approvals/${id}${verb ? `/${verb}` : ""}`;
const versionOf = async (id: string) => (await server.db.prisma.approvalRequest.findUniqueOrThrow({ where: { id } })).version;

beforeAll(async () => {
  server = await startTestServer();
  [requester, requesterOtherKey, requesterPerson] = await requesterKeys();
  alice = await actor({ scopes: ["wallets:write"], actor: "alice@acme.example" }, { role: "approver" });
  bob = await actor({ scopes: ["wallets:write", "payments:write"], actor: "bob@acme.example" }, { role: "owner" });
  // People who may not decide: a viewer and a developer (their role, not a key's scope, is what decides now).
  reader = await actor({ scopes: ["wallets:read"], actor: "auditor@acme.example" }, { role: "viewer" });
  paymentsOnly = await actor({ scopes: ["payments:write"], actor: "carol@acme.example" }, { role: "developer" });
  otherOrg = await actor({ organizationId: "org_apr_other", scopes: ["wallets:write"], actor: "mallory@other.example" }, { role: "owner" });
  production = await actor(
    { environment: "production", scopes: ["wallets:write"], actor: "alice-production@acme.example" },
    { role: "approver" },
  );
});
afterAll(() => server?.close());

describe("createApprovalRequest + GET /api/v2/agent/approvals/{id}", () => {
  it("creates a pending request bound to the action and the canonical payload hash, expiring after 72 h", async () => {
    const before = Date.now();
    const created = await request({ resourceId: "ct_9Bd3Fg6Hj1Kl4Mn7Pq2Rs5" });
    expect(created.approvalRequestId).toMatch(/^apr_[A-Za-z0-9]{22}$/);
    const got = await reader.call("GET", path(created.approvalRequestId));
    expect(got.status).toBe(200);
    expect(got.headers.get("x-request-id")).toBeTruthy();
    expect(got.json).toEqual(created);
    expect(got.json).toMatchObject({
      kind: "provider_operation",
      action: ACTION,
      status: "pending",
      consumed: false,
      consumedAt: null,
      payload: PAYLOAD,
      payloadHash: createHash("sha256").update(canonicalJson(PAYLOAD)).digest("hex"),
      scope: "wallets:write",
      resourceId: "ct_9Bd3Fg6Hj1Kl4Mn7Pq2Rs5",
      requestedBy: { actor: "treasury-bot@acme.example", apiKeyId: requester.auth.apiKeyId, memberId: requesterPerson.id },
      decidedBy: null,
      decisionReason: null,
      decidedAt: null,
      version: 1,
    });
    const ttl = Date.parse(got.json.expiresAt) - before;
    expect(ttl).toBeGreaterThanOrEqual(APPROVAL_TTL_HOURS * 3_600_000 - 1_000);
    expect(ttl).toBeLessThanOrEqual(APPROVAL_TTL_HOURS * 3_600_000 + 60_000);
  });

  it("answers 404 for another organization's or environment's request and for an unknown id", async () => {
    const { approvalRequestId } = await request();
    for (const who of [otherOrg, production]) {
      const res = await who.call("GET", path(approvalRequestId));
      expect(res.status).toBe(404);
      expect(res.headers.get("content-type")).toMatch(/^application\/problem\+json/);
      expect(res.json.code).toBe("NOT_FOUND");
    }
    expect((await alice.call("GET", path("apr_doesNotExist123"))).status).toBe(404);
  });

  it("needs the read scope of the approval's resource (403 FORBIDDEN otherwise)", async () => {
    const { approvalRequestId } = await request();
    const res = await paymentsOnly.call("GET", path(approvalRequestId));
    expect(res.status).toBe(403);
    expect(res.json.code).toBe("FORBIDDEN");
    expect(res.json.detail).toContain("wallets:read");
  });

  it.each([
    ["an id without the apr_ prefix", "wal_123"],
    ["an id with a character ids never have", "apr_abc-def"],
  ])("answers %s with 404 NOT_FOUND: it names no request (issue 38)", async (_name, id) => {
    const res = await alice.call("GET", path(id));
    expect(res.status).toBe(404);
    expect(res.json.code).toBe("NOT_FOUND");
  });

  it("rejects an id past 255 characters with 400 VALIDATION_ERROR", async () => {
    const res = await alice.call("GET", path(`apr_${"a".repeat(260)}`));
    expect(res.status).toBe(400);
    expect(res.json.code).toBe("VALIDATION_ERROR");
  });

  it("answers 401 without a key", async () => {
    const { approvalRequestId } = await request();
    const res = await api(server.url)("GET", path(approvalRequestId));
    expect(res.status).toBe(401);
    expect(res.json.code).toBe("UNAUTHORIZED");
  });
});

describe("POST …/approve and …/reject", () => {
  it("approves by a different actor of the same organization: 200, approved, version 2", async () => {
    const { approvalRequestId } = await request();
    const res = await alice.call("POST", path(approvalRequestId, "approve"), { reason: "Matches the payout batch", expectedVersion: 1 });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      approvalRequestId,
      status: "approved",
      version: 2,
      consumed: false,
      decidedBy: { actor: "alice@acme.example", apiKeyId: alice.memberId, memberId: alice.memberId },
      decisionReason: "Matches the payout batch",
    });
    expect(Date.parse(res.json.decidedAt)).toBeGreaterThan(0);
    expect((await reader.call("GET", path(approvalRequestId))).json).toEqual(res.json);
  });

  it("accepts an empty body", async () => {
    const { approvalRequestId } = await request();
    const res = await bob.call("POST", path(approvalRequestId, "reject"), {});
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ status: "rejected", version: 2, decisionReason: null, decidedBy: { actor: "bob@acme.example" } });
  });

  it.each(["approve", "reject"] as const)(
    "refuses to %s by the requesting member (four eyes): 403 OWN_APPROVAL_REQUEST, nothing changes",
    async (verb) => {
      const { approvalRequestId } = await request();
      const res = await requesterPerson.call("POST", path(approvalRequestId, verb), {});
      expect(res.status).toBe(403);
      expect(res.json.code).toBe("OWN_APPROVAL_REQUEST");
      expect(res.json.detail).toMatch(/another member/i);
      expect(await versionOf(approvalRequestId)).toBe(1);
    },
  );

  it.each([
    ["approve", "the requester's own key"],
    ["approve", "another key of the requester's member"],
    ["reject", "the requester's own key"],
    ["reject", "another key of the requester's member"],
  ] as const)("refuses to %s by %s: no API key decides (403 SESSION_REQUIRED), nothing changes", async (verb, who) => {
    const { approvalRequestId } = await request();
    const caller = who === "the requester's own key" ? requester : requesterOtherKey;
    const res = await caller.call("POST", path(approvalRequestId, verb), {});
    expect(res.status).toBe(403);
    expect(res.json.code).toBe("SESSION_REQUIRED");
    expect(await versionOf(approvalRequestId)).toBe(1);
  });

  it("answers 404 to another organization's or environment's key", async () => {
    const { approvalRequestId } = await request();
    for (const who of [otherOrg, production]) {
      for (const verb of ["approve", "reject"] as const) {
        const res = await who.call("POST", path(approvalRequestId, verb), {});
        expect(res.status).toBe(404);
        expect(res.json.code).toBe("NOT_FOUND");
      }
    }
    expect(await versionOf(approvalRequestId)).toBe(1);
  });

  it("needs the approver or owner role to decide: a viewer or a developer gets 403", async () => {
    const { approvalRequestId } = await request();
    for (const who of [reader, paymentsOnly]) {
      for (const verb of ["approve", "reject"] as const) {
        const res = await who.call("POST", path(approvalRequestId, verb), {});
        expect(res.status).toBe(403);
        expect(res.json.code).toBe("FORBIDDEN");
        expect(res.json.detail).toMatch(/role cannot/);
      }
    }
    expect(await versionOf(approvalRequestId)).toBe(1);
  });

  it("a decided request cannot be decided again: reject then approve → 409 STATE_CONFLICT", async () => {
    const { approvalRequestId } = await request();
    expect((await bob.call("POST", path(approvalRequestId, "reject"), { reason: "Wrong destination" })).status).toBe(200);
    for (const verb of ["approve", "reject"] as const) {
      const res = await alice.call("POST", path(approvalRequestId, verb), {});
      expect(res.status).toBe(409);
      expect(res.json.code).toBe("STATE_CONFLICT");
      expect(res.json.detail).toContain("rejected");
    }
    const got = await reader.call("GET", path(approvalRequestId));
    expect(got.json).toMatchObject({ status: "rejected", version: 2, decisionReason: "Wrong destination" });
  });

  it("expectedVersion must match the current version (409 STATE_CONFLICT otherwise)", async () => {
    const { approvalRequestId } = await request();
    const res = await alice.call("POST", path(approvalRequestId, "approve"), { expectedVersion: 2 });
    expect(res.status).toBe(409);
    expect(res.json.code).toBe("STATE_CONFLICT");
    expect(res.json.detail).toContain("expectedVersion");
    expect(await versionOf(approvalRequestId)).toBe(1);
    expect((await alice.call("POST", path(approvalRequestId, "approve"), { expectedVersion: 1 })).status).toBe(200);
  });

  it("an expired request reads `expired` and cannot be decided (409) or used (403)", async () => {
    const { approvalRequestId } = await request();
    await server.db.prisma.approvalRequest.update({ where: { id: approvalRequestId }, data: { expiresAt: new Date(Date.now() - 1_000) } });
    const got = await reader.call("GET", path(approvalRequestId));
    expect(got.json).toMatchObject({ status: "expired", version: 1, decidedBy: null });
    for (const verb of ["approve", "reject"] as const) {
      const res = await alice.call("POST", path(approvalRequestId, verb), {});
      expect(res.status).toBe(409);
      expect(res.json.code).toBe("STATE_CONFLICT");
      expect(res.json.detail).toContain("expired");
    }
    await expect(consume(requester, approvalRequestId)).rejects.toMatchObject({
      code: "FORBIDDEN",
      message: expect.stringMatching(/expired/),
    });
    expect(await versionOf(approvalRequestId)).toBe(1);
  });

  it("a tiny ttlHours expires the request on its own", async () => {
    const { approvalRequestId, expiresAt } = await request({ ttlHours: 0.05 / 3600 }); // 50 ms
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, Date.parse(expiresAt) - Date.now()) + 20));
    expect((await reader.call("GET", path(approvalRequestId))).json.status).toBe("expired");
    expect((await alice.call("POST", path(approvalRequestId, "approve"), {})).status).toBe(409);
  });

  it("an approved but unused request expires too", async () => {
    const { approvalRequestId } = await request();
    expect((await alice.call("POST", path(approvalRequestId, "approve"), {})).status).toBe(200);
    await server.db.prisma.approvalRequest.update({ where: { id: approvalRequestId }, data: { expiresAt: new Date(Date.now() - 1_000) } });
    expect((await reader.call("GET", path(approvalRequestId))).json).toMatchObject({
      status: "expired",
      decidedBy: { actor: "alice@acme.example" },
    });
    await expect(consume(requester, approvalRequestId)).rejects.toMatchObject({ code: "FORBIDDEN" });
  });

  it("of 10 concurrent approve/reject calls by two actors exactly one wins; version rises by exactly one", async () => {
    const { approvalRequestId } = await request();
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        i % 2 === 0 ? alice.call("POST", path(approvalRequestId, "approve"), {}) : bob.call("POST", path(approvalRequestId, "reject"), {}),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(9);
    for (const r of results.filter((x) => x.status === 409)) expect(r.json.code).toBe("STATE_CONFLICT");
    const winner = results.find((r) => r.status === 200)?.json;
    expect(await versionOf(approvalRequestId)).toBe(2);
    const got = await reader.call("GET", path(approvalRequestId));
    expect(got.json).toEqual(winner);
    expect(got.json.status).toBe(winner.decidedBy.actor === "alice@acme.example" ? "approved" : "rejected");
  });

  it("replays a decision for the same Idempotency-Key instead of deciding again", async () => {
    const { approvalRequestId } = await request();
    const headers = { "idempotency-key": randomUUID() };
    const first = await alice.call("POST", path(approvalRequestId, "approve"), { reason: "ok" }, headers);
    expect(first.status).toBe(200);
    const again = await alice.call("POST", path(approvalRequestId, "approve"), { reason: "ok" }, headers);
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.text).toBe(first.text);
    expect(await versionOf(approvalRequestId)).toBe(2);
    const reused = await alice.call("POST", path(approvalRequestId, "approve"), { reason: "other" }, headers);
    expect(reused.status).toBe(422);
    expect(reused.json.code).toBe("IDEMPOTENCY_KEY_REUSED");
  });

  it.each([
    ["an unknown field", { note: "x" }],
    ["a reason over 500 characters", { reason: "x".repeat(501) }],
    ["a non-integer expectedVersion", { expectedVersion: 1.5 }],
    ["an expectedVersion below 1", { expectedVersion: 0 }],
  ])("rejects a body with %s (400 VALIDATION_ERROR), nothing changes", async (_name, body) => {
    const { approvalRequestId } = await request();
    const res = await alice.call("POST", path(approvalRequestId, "approve"), body);
    expect(res.status).toBe(400);
    expect(res.json.code).toBe("VALIDATION_ERROR");
    expect(await versionOf(approvalRequestId)).toBe(1);
  });
});

describe("consumeApproval", () => {
  async function approved() {
    const { approvalRequestId } = await request();
    const res = await alice.call("POST", path(approvalRequestId, "approve"), {});
    expect(res.status).toBe(200);
    return approvalRequestId;
  }

  it("uses an approved request once (version +1, consumed), then refuses a second use with 403", async () => {
    const id = await approved();
    // Key order does not matter: the payload is compared by the hash of its canonical JSON.
    const reordered = {
      input: { ...PAYLOAD.input },
      operation: PAYLOAD.operation,
      category: PAYLOAD.category,
      providerSlug: PAYLOAD.providerSlug,
    };
    const used = await consume(requester, id, ACTION, reordered);
    expect(used).toMatchObject({ status: "approved", consumed: true, version: 3 });
    expect(Date.parse(used.consumedAt as string)).toBeGreaterThan(0);
    expect((await reader.call("GET", path(id))).json).toEqual(used);
    await expect(consume(requester, id)).rejects.toMatchObject({ code: "FORBIDDEN", message: expect.stringMatching(/already used/) });
    expect(await versionOf(id)).toBe(3);
    // A consumed approval is final; it cannot be decided again either.
    expect((await bob.call("POST", path(id, "reject"), {})).status).toBe(409);
  });

  it.each([
    ["another action", "providers.invoke:custody.create_wallet", PAYLOAD, /another operation/],
    ["another amount", ACTION, { ...PAYLOAD, input: { ...PAYLOAD.input, amountMinor: "2500000001" } }, /another payload/],
    ["an extra payload member", ACTION, { ...PAYLOAD, note: "x" }, /another payload/],
  ])("refuses %s with 403 and leaves the approval unused", async (_name, action, payload, message) => {
    const id = await approved();
    await expect(consume(requester, id, action, payload)).rejects.toMatchObject({
      code: "FORBIDDEN",
      message: expect.stringMatching(message),
    });
    expect(await versionOf(id)).toBe(2);
    expect((await consume(requester, id)).consumed).toBe(true);
  });

  it("refuses a pending or rejected request with 403", async () => {
    const pending = await request();
    await expect(consume(requester, pending.approvalRequestId)).rejects.toMatchObject({
      code: "FORBIDDEN",
      message: expect.stringMatching(/pending/),
    });
    const rejected = await request();
    expect((await bob.call("POST", path(rejected.approvalRequestId, "reject"), {})).status).toBe(200);
    await expect(consume(requester, rejected.approvalRequestId)).rejects.toMatchObject({
      code: "FORBIDDEN",
      message: expect.stringMatching(/rejected/),
    });
  });

  it("answers 404 for another organization's or environment's request, and 403 without its scope", async () => {
    const id = await approved();
    await expect(consume(otherOrg, id)).rejects.toMatchObject({ code: "NOT_FOUND", status: 404 });
    await expect(consume(production, id)).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(consume(paymentsOnly, id)).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(consume(reader, id)).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect(await versionOf(id)).toBe(2);
  });

  it("stays unused when the caller's transaction rolls back", async () => {
    const id = await approved();
    await expect(
      inUnitOfWork(async (uow) => {
        await consumeApproval(uow, { auth: requester.auth, approvalRequestId: id, action: ACTION, payload: PAYLOAD });
        throw new Error("provider failed");
      }),
    ).rejects.toThrow("provider failed");
    expect((await reader.call("GET", path(id))).json).toMatchObject({ consumed: false, version: 2 });
  });

  it("of concurrent uses exactly one wins", async () => {
    const id = await approved();
    const results = await Promise.allSettled(Array.from({ length: 5 }, () => consume(requester, id)));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const r of results) {
      if (r.status === "rejected") expect(["FORBIDDEN", "STATE_CONFLICT"]).toContain((r.reason as { code: string }).code);
    }
    expect(await versionOf(id)).toBe(3);
  });

  it("binds a null or absent payload too", async () => {
    const { approvalRequestId } = await request({ payload: null, kind: "issuance", action: "treasury.mint" });
    expect((await alice.call("POST", path(approvalRequestId, "approve"), {})).json.payload).toBeNull();
    await expect(consume(requester, approvalRequestId, "treasury.mint", {})).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect((await consume(requester, approvalRequestId, "treasury.mint", null)).consumed).toBe(true);
  });
});
