// One-time TOTP codes (issue 38, RFC 6238 §5.2): a code accepted once for a member — confirming the enrolment or
// verifying a session — is refused afterwards (401 INVALID_CREDENTIALS, counted by the sign-in throttle), on every
// instance of a deployment (two servers on one PostgreSQL database, the same code sent to both at once).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type JoinedMember, joinMember, PASSWORD, sessionFrom, sessionHeaders, signIn } from "../helpers/members.ts";
import { api, startTestServer, type TestServer } from "../helpers/test-server.ts";
import { freshTotp } from "../helpers/totp.ts";

const V2 = "/api/v2/agent";
const ORG = "org_totp_once";
const onPostgres = process.env.TEST_DATABASE_URL?.startsWith("postgres") ?? false;

let a: TestServer;
beforeAll(async () => {
  a = await startTestServer();
});
afterAll(() => a?.close());

/** A new session of the member on `server`, not yet second-factor verified. */
async function newSession(server: TestServer, member: JoinedMember): Promise<Record<string, string>> {
  const signedIn = await signIn(server, member.email, PASSWORD);
  expect(signedIn.status).toBe(201);
  return sessionHeaders(server, sessionFrom(signedIn));
}

const verify = (server: TestServer, headers: Record<string, string>, code: string) =>
  api(server.url)("POST", `${V2}/sessions/current/second-factor`, { code }, headers);

describe("a TOTP code works once", () => {
  it("the code that confirmed the enrolment is refused for a session; a later code is accepted", async () => {
    const member = await joinMember(a, ORG, { role: "approver" });
    const begun = await member.call("POST", `${V2}/members/me/totp`);
    expect(begun.status).toBe(200);
    const secret = begun.json.secret as string;
    const code = await freshTotp(secret);
    const confirmed = await member.call("POST", `${V2}/members/me/totp/confirm`, { code });
    expect(confirmed.status, confirmed.text).toBe(200);
    const session = await newSession(a, member);
    const replay = await verify(a, session, code);
    expect(replay.status, replay.text).toBe(401);
    expect(replay.json.code).toBe("INVALID_CREDENTIALS");
    expect((await api(a.url)("GET", `${V2}/sessions/current`, undefined, session)).json.session.secondFactorVerified).toBe(false);
    const later = await verify(a, session, await freshTotp(secret));
    expect(later.status, later.text).toBe(200);
    expect(later.json.session.secondFactorVerified).toBe(true);
  });

  it("one code verifies one session: the same code for a second session of the member is refused", async () => {
    const member = await joinMember(a, ORG, { role: "approver", secondFactor: true });
    const secret = member.totpSecret as string;
    const code = await freshTotp(secret);
    const first = await verify(a, await newSession(a, member), code);
    expect(first.status, first.text).toBe(200);
    const second = await newSession(a, member);
    const replay = await verify(a, second, code);
    expect(replay.status, replay.text).toBe(401);
    expect(replay.json.code).toBe("INVALID_CREDENTIALS");
    // The same session with the same code again: still refused.
    expect((await verify(a, second, code)).status).toBe(401);
  });

  it("a refused replay spends the sign-in budget of the account like a wrong code", async () => {
    const server = await startTestServer({ env: { SIGN_IN_ATTEMPTS_PER_ACCOUNT: "6" } });
    try {
      // Sign-in (1) and enrolment confirmation (2).
      const member = await joinMember(server, ORG, { role: "approver", secondFactor: true });
      const secret = member.totpSecret as string;
      const session = await newSession(server, member); // 3
      const code = await freshTotp(secret);
      const accepted = await verify(server, session, code); // 4
      expect(accepted.status, accepted.text).toBe(200);
      const before = Number(accepted.headers.get("x-ratelimit-remaining"));
      const replay = await verify(server, session, code); // 5
      expect(replay.status).toBe(401);
      expect(Number(replay.headers.get("x-ratelimit-remaining"))).toBe(before - 1);
      await verify(server, session, code); // 6: the budget is spent
      const throttled = await verify(server, session, "000000");
      expect(throttled.status, throttled.text).toBe(429);
      expect(throttled.json.code).toBe("RATE_LIMIT_EXCEEDED");
    } finally {
      await server.close();
    }
  });
});

describe.runIf(onPostgres)("two instances on one database", () => {
  let b: TestServer;
  beforeAll(async () => {
    b = await startTestServer({ sameDatabaseAs: a });
  });
  afterAll(() => b?.close());

  it("the same code sent to both instances at once is accepted by exactly one; then refused by either", async () => {
    const member = await joinMember(a, ORG, { role: "approver", secondFactor: true });
    const secret = member.totpSecret as string;
    const code = await freshTotp(secret);
    const [onA, onB] = [await newSession(a, member), await newSession(b, member)];
    const results = await Promise.all([verify(a, onA, code), verify(b, onB, code)]);
    expect(results.map((r) => r.status).sort(), results.map((r) => r.text).join("\n")).toEqual([200, 401]);
    const third = await newSession(b, member);
    expect((await verify(b, third, code)).status).toBe(401);
    expect((await verify(a, { ...third, origin: a.url }, code)).status).toBe(401);
  });
});
