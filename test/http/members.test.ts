// Members, sessions, the organization's API keys, approvals between people and the audit log (issue 24), on both
// databases: the acceptance list of the issue, plus what makes each of its rules fail when broken.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { invite, type JoinedMember, joinMember, PASSWORD, sessionFrom, sessionHeaders, signIn, totpCode } from "../helpers/members.ts";
import { api, startTestServer, type TestServer } from "../helpers/test-server.ts";
import { connect, idem } from "../helpers/v2.ts";

const V2 = "/api/v2/agent";
const ORG = "org_people";
const onPostgres = process.env.TEST_DATABASE_URL?.startsWith("postgres") ?? false;

let a: TestServer;
let owner: JoinedMember;

beforeAll(async () => {
  a = await startTestServer();
  owner = await joinMember(a, ORG, { role: "owner", secondFactor: true });
});
afterAll(() => a?.close());

describe("invitation → password → sign-in → API key → revocation", () => {
  let b: TestServer | undefined;
  beforeAll(async () => {
    if (onPostgres) b = await startTestServer({ sameDatabaseAs: a });
  });
  afterAll(() => b?.close());

  it("a key created with a session works as a bearer key until revoked, then 401 on another instance within a second", async () => {
    const email = "dev@people.example";
    const token = await invite(a, ORG, email, "developer");
    const accepted = await api(a.url)("POST", `${V2}/member-invitations/accept`, {
      token,
      name: "Dev",
      password: "a-long-enough-password",
    });
    expect(accepted.status, accepted.text).toBe(201);
    expect(accepted.json).toMatchObject({ email, role: "developer", secondFactorEnabled: false });
    // The link works once.
    const again = await api(a.url)("POST", `${V2}/member-invitations/accept`, { token, name: "Dev", password: "a-long-enough-password" });
    expect(again.status).toBe(404);
    const signedIn = await signIn(a, email, "a-long-enough-password");
    expect(signedIn.status).toBe(201);
    const cookie = signedIn.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(/^__Host-cp_session=cps_[0-9A-Za-z]{43}; Path=\/; HttpOnly; SameSite=Strict; Secure; Max-Age=43200$/);
    const dev = api(a.url);
    const headers = sessionHeaders(a, sessionFrom(signedIn));
    const created = await dev("POST", `${V2}/api-keys`, { environment: "sandbox", scopes: ["wallets:read"], label: "Backend" }, headers);
    expect(created.status, created.text).toBe(201);
    expect(created.json.secret).toMatch(/^cp_sandbox_/);
    expect(created.json).toMatchObject({
      environment: "sandbox",
      scopes: ["wallets:read"],
      label: "Backend",
      createdBy: accepted.json.id,
      actor: email,
    });
    const other = b ?? a;
    const asKey = api(other.url, created.json.secret);
    expect((await asKey("GET", "/api/v1/wallets")).status).toBe(200);
    // Listed without its secret, with its creator and (soon, off the request path) its last use.
    await vi.waitFor(
      async () => {
        const listed = await dev("GET", `${V2}/api-keys?limit=100`, undefined, headers);
        const item = listed.json.data.find((k: { id: string }) => k.id === created.json.id);
        expect(item).toMatchObject({ createdBy: accepted.json.id, actor: email, revokedAt: null });
        expect(item.lastUsedAt).not.toBeNull();
        expect(JSON.stringify(listed.json)).not.toContain(created.json.secret);
      },
      { timeout: 5_000, interval: 100 },
    );
    const revoked = await dev("DELETE", `${V2}/api-keys/${created.json.id}`, undefined, headers);
    expect(revoked.status, revoked.text).toBe(200);
    const revokedAt = Date.now();
    const refused = await asKey("GET", "/api/v1/wallets");
    expect(refused.status).toBe(401);
    expect(Date.now() - revokedAt).toBeLessThan(1_000);
    expect((await dev("DELETE", `${V2}/api-keys/${created.json.id}`, undefined, headers)).status).toBe(409);
  });

  it("a key the operator made is listed with no creator and the actor the operator gave it", async () => {
    const made = await api(a.url, a.adminToken)("POST", "/api/admin/keys", {
      organizationId: ORG,
      environment: "sandbox",
      scopes: ["wallets:read"],
      actor: "ops-bot@operator.example",
      label: "Operator's key",
    });
    expect(made.status, made.text).toBe(201);
    const listed = await api(a.url)("GET", `${V2}/api-keys?limit=100`, undefined, owner.headers());
    expect(listed.status, listed.text).toBe(200);
    const item = listed.json.data.find((k: { id: string }) => k.id === made.json.id);
    expect(item).toMatchObject({ createdBy: null, actor: "ops-bot@operator.example", label: "Operator's key" });
  });

  it("the key's member is its actor: it is recorded on the approval requests the key raises", async () => {
    await connect(a, { organizationId: ORG, category: "custody" });
    const created = await owner.call("POST", `${V2}/api-keys`, { environment: "sandbox", scopes: ["wallets:write"], label: "Custody" });
    const requested = await api(a.url, created.json.secret)(
      "POST",
      `${V2}/custody/wallets`,
      { label: "Ops", chain: "base", type: "mpc" },
      idem(),
    );
    expect(requested.status, requested.text).toBe(201);
    const approval = await owner.call("GET", `${V2}/approvals/${requested.json.approvalRequestId}`);
    expect(approval.json.requestedBy).toEqual({ actor: owner.email, apiKeyId: created.json.id, memberId: owner.id });
  });
});

describe("sign-in", () => {
  it("a wrong password and an unknown email answer the same 401; past the account's budget, 429 with Retry-After", async () => {
    const member = await joinMember(a, ORG, { role: "viewer" });
    const unknown = await signIn(a, "nobody@people.example", "wrong-password-1234");
    const wrong = await signIn(a, member.email, "wrong-password-1234");
    expect([unknown.status, wrong.status]).toEqual([401, 401]);
    const strip = (body: unknown) => ({ ...(body as Record<string, unknown>), requestId: undefined });
    expect(strip(await wrong.json())).toEqual(strip(await unknown.json()));
    expect(wrong.headers.get("set-cookie")).toBeNull();
    // The account's budget (10 attempts per window by default): joinMember signed in once, one wrong attempt above.
    const statuses: number[] = [];
    for (let i = 0; i < 9; i++) statuses.push((await signIn(a, member.email, "wrong-password-1234")).status);
    expect(statuses.slice(0, 8)).toEqual(Array(8).fill(401));
    expect(statuses[8]).toBe(429);
    const throttled = await signIn(a, member.email, PASSWORD);
    expect(throttled.status).toBe(429);
    expect(Number(throttled.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(((await throttled.json()) as { code: string }).code).toBe("RATE_LIMIT_EXCEEDED");
  });

  it("an API key never opens a session, and a session never works as a bearer key", async () => {
    const key = await owner.call("POST", `${V2}/api-keys`, { environment: "sandbox", scopes: ["wallets:read"], label: "Bearer" });
    const asCookie = await api(a.url)("GET", `${V2}/sessions/current`, undefined, sessionHeaders(a, key.json.secret));
    expect(asCookie.status).toBe(401);
    const asBearer = await api(a.url, owner.session)("GET", "/api/v1/wallets");
    expect(asBearer.status).toBe(401);
    const keyOnSessionOperation = await api(a.url, key.json.secret)("GET", `${V2}/members`);
    expect(keyOnSessionOperation.status).toBe(401);
  });
});

describe("sessions", () => {
  it("a cross-origin POST with a valid cookie is 403 CROSS_ORIGIN_REQUEST, and nothing happens", async () => {
    // Keys used by the tests above get their "last used" written 200 ms after that use: written now, it cannot land
    // between the two reads compared below (CI once read a lastUsedAt set in between).
    await a.keyUsage.flush();
    const before = await owner.call("GET", `${V2}/api-keys?limit=100`);
    const foreign: Array<Record<string, string>> = [{ origin: "https://evil.example" }, { "sec-fetch-site": "cross-site" }];
    for (const extra of foreign) {
      const res = await owner.call("POST", `${V2}/api-keys`, { environment: "sandbox", scopes: ["wallets:read"], label: "CSRF" }, extra);
      expect(res.status, res.text).toBe(403);
      expect(res.json.code).toBe("CROSS_ORIGIN_REQUEST");
    }
    // No Origin and no Sec-Fetch-Site at all: not a request of our own pages either.
    const bare = await api(a.url)(
      "POST",
      `${V2}/api-keys`,
      { environment: "sandbox", scopes: ["wallets:read"], label: "CSRF" },
      {
        cookie: `__Host-cp_session=${owner.session}`,
      },
    );
    expect(bare.status).toBe(403);
    const after = await owner.call("GET", `${V2}/api-keys?limit=100`);
    expect(after.json.data).toEqual(before.json.data);
    // A read carried by the cookie is not state-changing: no origin needed.
    expect((await api(a.url)("GET", `${V2}/sessions/current`, undefined, { cookie: `__Host-cp_session=${owner.session}` })).status).toBe(
      200,
    );
  });

  it("an idle, an expired and a signed-out session are 401", async () => {
    const idle = await joinMember(a, ORG, { role: "viewer" });
    const old = await joinMember(a, ORG, { role: "viewer" });
    const out = await joinMember(a, ORG, { role: "viewer" });
    const current = (m: JoinedMember) => m.call("GET", `${V2}/sessions/current`);
    for (const m of [idle, old, out]) expect((await current(m)).status).toBe(200);
    const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000);
    await a.db.kysely
      .updateTable("MemberSession")
      .set({ lastSeenAt: minutesAgo(31) })
      .where("memberId", "=", idle.id)
      .execute();
    await a.db.kysely
      .updateTable("MemberSession")
      .set({ expiresAt: minutesAgo(1) })
      .where("memberId", "=", old.id)
      .execute();
    expect((await out.call("DELETE", `${V2}/sessions/current`)).status).toBe(204);
    for (const m of [idle, old, out]) {
      const res = await current(m);
      expect(res.status).toBe(401);
      expect(res.json.code).toBe("UNAUTHORIZED");
    }
  });

  it("signing out everywhere ends every session of the member", async () => {
    const member = await joinMember(a, ORG, { role: "viewer" });
    const second = sessionFrom(await signIn(a, member.email, PASSWORD));
    const res = await member.call("DELETE", `${V2}/sessions`);
    expect(res.status).toBe(204);
    expect(res.headers.get("set-cookie")).toMatch(/^__Host-cp_session=; .*Max-Age=0$/);
    for (const session of [member.session, second]) {
      expect((await api(a.url)("GET", `${V2}/sessions/current`, undefined, sessionHeaders(a, session))).status).toBe(401);
    }
  });

  it("verifies the second factor with a TOTP code, or a recovery code once", async () => {
    const member = await joinMember(a, ORG, { role: "approver" });
    const begun = await member.call("POST", `${V2}/members/me/totp`);
    const wrong = await member.call("POST", `${V2}/members/me/totp/confirm`, { code: "000000" });
    expect(wrong.status).toBe(401);
    const confirmed = await member.call("POST", `${V2}/members/me/totp/confirm`, { code: await totpCode(begun.json.secret) });
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(confirmed.json.recoveryCodes).toHaveLength(10);
    const [recovery] = confirmed.json.recoveryCodes as string[];
    const fresh = sessionHeaders(a, sessionFrom(await signIn(a, member.email, PASSWORD)));
    const call = api(a.url);
    expect((await call("GET", `${V2}/sessions/current`, undefined, fresh)).json.session.secondFactorVerified).toBe(false);
    const verified = await call("POST", `${V2}/sessions/current/second-factor`, { code: recovery }, fresh);
    expect(verified.status, verified.text).toBe(200);
    expect(verified.json.session.secondFactorVerified).toBe(true);
    const another = sessionHeaders(a, sessionFrom(await signIn(a, member.email, PASSWORD)));
    expect((await call("POST", `${V2}/sessions/current/second-factor`, { code: recovery }, another)).status).toBe(401);
  });
});

describe("members", () => {
  it("owners invite, change roles and remove members; the last owner cannot be removed or demoted", async () => {
    const org = "org_people_roles";
    const first = await joinMember(a, org, { role: "owner" });
    const invited = await first.call("POST", `${V2}/member-invitations`, { email: "new@roles.example", role: "viewer" });
    expect(invited.status, invited.text).toBe(201);
    expect(invited.json.invitationUrl).toContain("#token=cpi_");
    const dev = await joinMember(a, org, { role: "developer" });
    expect((await dev.call("POST", `${V2}/member-invitations`, { email: "x@roles.example", role: "owner" })).status).toBe(403);
    for (const res of [
      await first.call("DELETE", `${V2}/members/${first.id}`),
      await first.call("PATCH", `${V2}/members/${first.id}`, { role: "viewer" }),
    ]) {
      expect(res.status, res.text).toBe(409);
      expect(res.json.code).toBe("LAST_OWNER");
    }
    const promoted = await first.call("PATCH", `${V2}/members/${dev.id}`, { role: "owner" });
    expect(promoted.json.role).toBe("owner");
    expect((await first.call("DELETE", `${V2}/members/${first.id}`)).status).toBe(204);
    // Removed: their session ends at once.
    expect((await first.call("GET", `${V2}/sessions/current`)).status).toBe(401);
    const listed = await dev.call("GET", `${V2}/members`);
    expect(listed.json.data.map((m: { id: string }) => m.id)).toEqual([dev.id]);
    // Another organization's member is not found.
    expect((await dev.call("GET", `${V2}/members/${owner.id}`)).status).toBe(404);
  });
});

describe("approvals between people", () => {
  let requester: JoinedMember;
  let key: string;
  const request = async () => {
    const res = await api(a.url, key)("POST", `${V2}/custody/wallets`, { label: "Four eyes", chain: "base", type: "mpc" }, idem());
    expect(res.status, res.text).toBe(201);
    return res.json.approvalRequestId as string;
  };

  beforeAll(async () => {
    await connect(a, { organizationId: ORG, category: "custody" });
    requester = await joinMember(a, ORG, { role: "owner", secondFactor: true });
    key = (await requester.call("POST", `${V2}/api-keys`, { environment: "sandbox", scopes: ["wallets:write"], label: "Requester" })).json
      .secret;
  });

  it("a member deciding their own request is 403 OWN_APPROVAL_REQUEST", async () => {
    const id = await request();
    const res = await requester.call("POST", `${V2}/approvals/${id}/approve`, {});
    expect(res.status, res.text).toBe(403);
    expect(res.json.code).toBe("OWN_APPROVAL_REQUEST");
  });

  it("deciding needs a verified second factor (403 SECOND_FACTOR_REQUIRED), a session (403 SESSION_REQUIRED) and the role (403 FORBIDDEN)", async () => {
    const id = await request();
    const noFactor = await joinMember(a, ORG, { role: "approver" });
    const viewer = await joinMember(a, ORG, { role: "viewer", secondFactor: true });
    const otherKey = (
      await owner.call("POST", `${V2}/api-keys`, { environment: "sandbox", scopes: ["wallets:write"], label: "Approver key" })
    ).json.secret;
    const answers = [
      await noFactor.call("POST", `${V2}/approvals/${id}/approve`, {}),
      await api(a.url, otherKey)("POST", `${V2}/approvals/${id}/approve`, {}),
      await viewer.call("POST", `${V2}/approvals/${id}/reject`, {}),
    ];
    expect(answers.map((r) => [r.status, r.json.code])).toEqual([
      [403, "SECOND_FACTOR_REQUIRED"],
      [403, "SESSION_REQUIRED"],
      [403, "FORBIDDEN"],
    ]);
    expect((await owner.call("GET", `${V2}/approvals/${id}`)).json.status).toBe("pending");
  });

  it("an approver with a verified second factor decides; the decision records member, time and note, and is audited", async () => {
    const id = await request();
    const approver = await joinMember(a, ORG, { role: "approver", secondFactor: true });
    const res = await approver.call("POST", `${V2}/approvals/${id}/approve`, { reason: "Checked with treasury" });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({
      status: "approved",
      decidedBy: { actor: approver.email, apiKeyId: approver.id, memberId: approver.id },
      decisionReason: "Checked with treasury",
    });
    expect(Date.parse(res.json.decidedAt)).toBeGreaterThan(Date.now() - 60_000);
    const log = await owner.call("GET", `${V2}/audit-log?limit=100`);
    expect(log.json.data).toContainEqual(
      expect.objectContaining({ action: "approval_request.decided", actorMemberId: approver.id, target: id }),
    );
  });
});

describe("audit log", () => {
  it("owners list what people did, newest first; others are refused; no entry holds a secret", async () => {
    const viewer = await joinMember(a, ORG, { role: "viewer", secondFactor: true });
    await signIn(a, viewer.email, "not-the-password-at-all");
    const key = await owner.call("POST", `${V2}/api-keys`, { environment: "production", scopes: ["payments:read"], label: "Audited" });
    await owner.call("DELETE", `${V2}/api-keys/${key.json.id}`);
    expect((await viewer.call("GET", `${V2}/audit-log`)).status).toBe(403);
    const all: Array<Record<string, unknown>> = [];
    let cursor: string | null = null;
    do {
      const page = await owner.call("GET", `${V2}/audit-log?limit=100${cursor ? `&startingAfter=${cursor}` : ""}`);
      expect(page.status, page.text).toBe(200);
      all.push(...page.json.data);
      cursor = page.json.nextCursor;
    } while (cursor);
    const actions = new Set(all.map((e) => e.action));
    for (const action of ["session.created", "session.failed", "member.invited", "member.joined", "api_key.created", "api_key.revoked"]) {
      expect(actions).toContain(action);
    }
    expect(all.find((e) => e.action === "api_key.created" && e.target === key.json.id)).toMatchObject({
      actorMemberId: owner.id,
      actorEmail: owner.email,
      clientAddress: "127.0.0.1",
    });
    const text = JSON.stringify(all);
    for (const secret of [
      PASSWORD,
      "not-the-password-at-all",
      owner.session,
      viewer.session,
      owner.totpSecret,
      viewer.totpSecret,
      key.json.secret,
    ]) {
      expect(text).not.toContain(secret);
    }
    const stored = await a.db.kysely
      .selectFrom("Member")
      .select(["passwordHash", "totpSecretSealed"])
      .where("id", "=", viewer.id)
      .executeTakeFirstOrThrow();
    expect(stored.passwordHash).toMatch(/^scrypt\$/);
    expect(stored.totpSecretSealed).not.toContain(viewer.totpSecret as string);
    for (const list of [`${V2}/members?limit=100`, `${V2}/api-keys?limit=100`, `${V2}/sessions/current`]) {
      const body = (await owner.call("GET", list)).text;
      for (const secret of [PASSWORD, stored.passwordHash, owner.session, owner.totpSecret, key.json.secret])
        expect(body).not.toContain(secret);
    }
  });
});
