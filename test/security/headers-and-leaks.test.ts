// OWASP API8:2023 Security Misconfiguration: helmet's headers on every kind of response (success and each error
// path), no X-Powered-By, no CORS grant by default (not even to a preflight), error bodies without stack frames, file
// paths, Prisma or SQL text (also for an unexpected internal error), and no secret in the logs at the most verbose
// level: API keys, the admin token, the scheduler secret and a freshly created key never appear in a log line, nor do
// a member's password, its hash, session, invitation token, TOTP secret or recovery codes.
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { invite, PASSWORD, sessionFrom, sessionHeaders, signIn, totpCode } from "../helpers/members.ts";
import { api, startTestServer, type TestServer } from "../helpers/test-server.ts";
import { ALL_WRITE_SCOPES, idem } from "../helpers/v2.ts";

const ORG = "org_sec_headers";
const SCHEDULER_SECRET = "test-scheduler-secret";
const lines: string[] = [];
const logDestination = new Writable({
  write(chunk, _encoding, done) {
    lines.push(...String(chunk).split("\n").filter(Boolean));
    done();
  },
});

let server: TestServer;
let key: string;
let keyId: string;

beforeAll(async () => {
  server = await startTestServer({ env: { LOG_LEVEL: "trace" }, logDestination });
  ({ key, id: keyId } = await server.createKey({ organizationId: ORG, scopes: ALL_WRITE_SCOPES }));
});
afterAll(() => server?.close());

type Exchange = { name: string; method: string; path: string; body?: string; headers?: Record<string, string> };

/** One request per response path of the middleware chain. */
const exchanges = (): Exchange[] => {
  const auth = { authorization: `Bearer ${key}` };
  const json = { ...auth, "content-type": "application/json" };
  return [
    { name: "v1 200", method: "GET", path: "/api/v1/wallets", headers: auth },
    { name: "v2 200", method: "GET", path: "/api/v2/agent/providers", headers: auth },
    { name: "openapi.json", method: "GET", path: "/openapi.json" },
    { name: "healthz", method: "GET", path: "/healthz" },
    { name: "401", method: "GET", path: "/api/v2/agent/providers" },
    {
      name: "403",
      method: "POST",
      path: "/api/v2/agent/custody/wallets",
      headers: { ...json, ...idem() },
      body: '{"label":"x","chain":"base","type":"mpc","organizationId":"org_other"}',
    },
    { name: "404 unknown path", method: "GET", path: "/api/v2/agent/nothing-here", headers: auth },
    { name: "404 unknown id", method: "GET", path: "/api/v1/wallets/wal_missing", headers: auth },
    { name: "404 outside the API", method: "GET", path: "/wp-admin/setup.php" },
    { name: "405", method: "DELETE", path: "/api/v1/wallets", headers: auth },
    { name: "400 malformed JSON", method: "POST", path: "/api/v1/wallets", headers: json, body: '{"chain":' },
    { name: "400 validation", method: "POST", path: "/api/v2/agent/cards/programmes", headers: { ...json, ...idem() }, body: '{"name":1}' },
    { name: "413", method: "POST", path: "/api/v1/wallets", headers: json, body: JSON.stringify({ label: "x".repeat(200_000) }) },
    { name: "415", method: "POST", path: "/api/v1/wallets", headers: { ...auth, "content-type": "text/plain" }, body: "chain=base" },
  ];
};

async function send(e: Exchange) {
  const res = await fetch(`${server.url}${e.path}`, { method: e.method, headers: e.headers, body: e.body });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/** Text that must never reach a client: stack frames, source paths, ORM and SQL internals. */
const LEAKS = [
  /\bat [\w.<>]+ \(/,
  /\n\s+at /,
  /\.ts:\d+/,
  /\.js:\d+/,
  /\/work\//,
  /node_modules/,
  /prisma/i,
  /\bSELECT\b|\bINSERT INTO\b|\bUPDATE "|\bFROM "/,
  /relation ".*" does not exist/,
  /PGlite|postgres/i,
  /TypeError|ReferenceError|RangeError|SyntaxError/,
];

describe("headers", () => {
  it("every response carries helmet's headers, no X-Powered-By and no CORS grant", async () => {
    for (const e of exchanges()) {
      const res = await send(e);
      const label = `${e.name} (${res.status})`;
      expect(res.headers.get("x-powered-by"), label).toBeNull();
      expect(res.headers.get("x-content-type-options"), label).toBe("nosniff");
      expect(res.headers.get("x-frame-options"), label).toBe("SAMEORIGIN");
      expect(res.headers.get("strict-transport-security"), label).toMatch(/max-age=\d+/);
      expect(res.headers.get("content-security-policy"), label).toMatch(/default-src 'self'/);
      expect(res.headers.get("referrer-policy"), label).toBe("no-referrer");
      expect(res.headers.get("cross-origin-resource-policy"), label).toBe("same-origin");
      expect(res.headers.get("access-control-allow-origin"), label).toBeNull();
      expect(res.headers.get("x-request-id"), label).toBeTruthy();
    }
  });

  it("a CORS preflight from another origin is granted nothing", async () => {
    for (const path of ["/api/v1/wallets", "/api/v2/agent/providers", "/api/admin/keys"]) {
      const res = await fetch(`${server.url}${path}`, {
        method: "OPTIONS",
        headers: {
          origin: "https://evil.example",
          "access-control-request-method": "POST",
          "access-control-request-headers": "authorization",
        },
      });
      await res.text();
      expect(res.headers.get("access-control-allow-origin"), path).toBeNull();
      expect(res.headers.get("access-control-allow-credentials"), path).toBeNull();
      expect(res.headers.get("access-control-allow-headers"), path).toBeNull();
      expect(res.status, path).toBeGreaterThanOrEqual(400);
    }
    const simple = await fetch(`${server.url}/api/v1/wallets`, {
      headers: { origin: "https://evil.example", authorization: `Bearer ${key}` },
    });
    await simple.text();
    expect(simple.headers.get("access-control-allow-origin")).toBeNull();
  });
});

describe("error bodies", () => {
  it("carry no stack frames, paths, Prisma or SQL text", async () => {
    for (const e of exchanges()) {
      const res = await send(e);
      if (res.status < 400) continue;
      for (const pattern of LEAKS) expect(res.text, `${e.name}: ${res.text}`).not.toMatch(pattern);
    }
  });

  it("an unexpected database failure is a bare 5xx in the documented shape", async () => {
    const prisma = server.db.prisma;
    await prisma.$executeRawUnsafe(`ALTER TABLE "Wallet" RENAME TO "Wallet_gone"`);
    try {
      for (const path of ["/api/v1/wallets", "/api/v1/balances"]) {
        const res = await api(server.url, key)("GET", path);
        expect(res.status, res.text).toBeGreaterThanOrEqual(500);
        expect(Object.keys(res.json).sort()).toEqual(["code", "error", "requestId"]);
        for (const pattern of LEAKS) expect(res.text, res.text).not.toMatch(pattern);
        expect(res.text).not.toContain("Wallet_gone");
        expect(res.text).not.toContain('"Wallet"');
      }
    } finally {
      await prisma.$executeRawUnsafe(`ALTER TABLE "Wallet_gone" RENAME TO "Wallet"`);
    }
  });
});

describe("logs", () => {
  it("never contain an API key, the admin token, the scheduler secret or a created key, even at trace level", async () => {
    lines.length = 0;
    const call = api(server.url, key);
    await call("GET", "/api/v1/wallets");
    await call("POST", "/api/v1/wallets", { chain: "base" }, idem());
    await call("GET", `/api/v1/wallets?api_key=${key}`);
    await call("POST", "/api/v1/wallets", '{"chain":', {});
    await api(server.url)("GET", "/api/v1/wallets", undefined, { authorization: `Basic ${Buffer.from(`${key}:`).toString("base64")}` });
    await api(server.url)("GET", "/api/v1/wallets", undefined, { "x-api-key": key, cookie: `session=${key}` });
    const created = await api(server.url, server.adminToken)("POST", "/api/admin/keys", {
      organizationId: ORG,
      environment: "sandbox",
      scopes: ["wallets:read"],
    });
    expect(created.status).toBe(201);
    await api(server.url, created.json.key)("GET", "/api/v1/wallets");
    await api(server.url, server.adminToken)("GET", `/api/admin/keys?organizationId=${ORG}`);
    await api(server.url, server.adminToken)("GET", `/api/admin/keys?organizationId=${ORG}&token=${server.adminToken}`);
    await api(server.url)("POST", "/api/v2/agent/payments/corridor/workflows/dispatch", undefined, {
      "x-scheduler-secret": SCHEDULER_SECRET,
    });
    await api(server.url)("POST", "/api/v2/agent/payments/corridor/workflows/dispatch", undefined, {
      "x-scheduler-secret": `${SCHEDULER_SECRET}-wrong`,
    });
    // An unexpected error (logged with its cause) while the request carries a key.
    await server.db.prisma.$executeRawUnsafe(`ALTER TABLE "Wallet" RENAME TO "Wallet_gone"`);
    try {
      expect((await call("GET", "/api/v1/wallets")).status).toBeGreaterThanOrEqual(500);
    } finally {
      await server.db.prisma.$executeRawUnsafe(`ALTER TABLE "Wallet_gone" RENAME TO "Wallet"`);
    }
    await new Promise((resolve) => setImmediate(resolve));

    expect(lines.length).toBeGreaterThan(10);
    // The requests were logged (so the check below is about content, not absence).
    expect(lines.some((line) => line.includes(keyId))).toBe(true);
    const secrets = {
      key,
      keySecretPart: key.slice("cp_sandbox_".length),
      createdKey: created.json.key as string,
      adminToken: server.adminToken,
      schedulerSecret: SCHEDULER_SECRET,
      basicCredentials: Buffer.from(`${key}:`).toString("base64"),
    };
    for (const [name, secret] of Object.entries(secrets)) {
      const leaking = lines.filter((line) => line.includes(secret));
      expect(leaking, `${name} appears in the logs`).toEqual([]);
    }
  });

  it("never contain a member's password, its hash, session, invitation token, TOTP secret or recovery codes", async () => {
    lines.length = 0;
    const email = `leaks-${Date.now()}@example.com`;
    const token = await invite(server, ORG, email, "owner");
    const accepted = await api(server.url)("POST", "/api/v2/agent/member-invitations/accept", {
      token,
      name: "Leak Check",
      password: PASSWORD,
    });
    expect(accepted.status, accepted.text).toBe(201);
    // A wrong password (logged as a refused sign-in) and the right one.
    expect((await signIn(server, email, `${PASSWORD}-wrong`)).status).toBe(401);
    const signedIn = await signIn(server, email, PASSWORD);
    expect(signedIn.status).toBe(201);
    const session = sessionFrom(signedIn);
    const call = (method: string, path: string, body?: unknown) => api(server.url)(method, path, body, sessionHeaders(server, session));
    const begun = await call("POST", "/api/v2/agent/members/me/totp");
    expect(begun.status, begun.text).toBe(200);
    const confirmed = await call("POST", "/api/v2/agent/members/me/totp/confirm", { code: await totpCode(begun.json.secret) });
    expect(confirmed.status, confirmed.text).toBe(200);
    const [recoveryCode, unusedRecoveryCode] = confirmed.json.recoveryCodes as string[];
    // A second session verified with a recovery code, then signed out.
    const second = sessionFrom(await signIn(server, email, PASSWORD));
    const verified = await api(server.url)(
      "POST",
      "/api/v2/agent/sessions/current/second-factor",
      { code: recoveryCode },
      sessionHeaders(server, second),
    );
    expect(verified.status, verified.text).toBe(200);
    const orgKey = await call("POST", "/api/v2/agent/api-keys", { environment: "sandbox", scopes: ["wallets:read"], label: "leaks" });
    expect(orgKey.status, orgKey.text).toBe(201);
    expect((await call("DELETE", "/api/v2/agent/sessions/current")).status).toBe(204);
    await new Promise((resolve) => setImmediate(resolve));

    // The requests were logged (so the check below is about content, not absence).
    expect(lines.some((line) => line.includes("/api/v2/agent/members/me/totp/confirm"))).toBe(true);
    const { passwordHash } = await server.db.prisma.member.findFirstOrThrow({ where: { email } });
    const secrets = {
      password: PASSWORD,
      passwordHash,
      invitationToken: token,
      session,
      secondSession: second,
      totpSecret: begun.json.secret as string,
      recoveryCode: recoveryCode as string,
      unusedRecoveryCode: unusedRecoveryCode as string,
      organizationKey: orgKey.json.secret as string,
    };
    for (const [name, secret] of Object.entries(secrets)) {
      const leaking = lines.filter((line) => line.includes(secret));
      expect(leaking, `${name} appears in the logs`).toEqual([]);
    }
  });
});
