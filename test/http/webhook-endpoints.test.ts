// Webhook endpoints over HTTP: create (secret shown once, stored sealed), read, list with a cursor, update, rotate,
// delete, test events, deliveries and their retry; scopes, tenant isolation and the URL rules of each environment.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSecret, parseSecretsKey } from "../../server/lib/webhooks/secret-box.ts";
import { api, startTestServer, type TestServer } from "../helpers/test-server.ts";
import { idem } from "../helpers/v2.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../helpers/webhook-receiver.ts";

const BASE = "/api/v2/agent/webhook-endpoints";
const SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;

let server: TestServer;
let receiver: WebhookReceiver;
let sandbox: ReturnType<typeof api>;
let production: ReturnType<typeof api>;
let reader: ReturnType<typeof api>;
let noWebhooks: ReturnType<typeof api>;
let otherOrg: ReturnType<typeof api>;

beforeAll(async () => {
  server = await startTestServer({ webhookDelivery: true, env: { WEBHOOK_POLL_INTERVAL_MS: "20" } });
  receiver = await startWebhookReceiver();
  const key = async (scopes: string[], options: { organizationId?: string; environment?: "sandbox" | "production" } = {}) =>
    api(server.url, (await server.createKey({ organizationId: "org_wh", scopes, ...options })).key);
  sandbox = await key(["webhooks:write"]);
  production = await key(["webhooks:write"], { environment: "production" });
  reader = await key(["webhooks:read"]);
  noWebhooks = await key(["payments:write", "cards:write"]);
  otherOrg = await key(["webhooks:write"], { organizationId: "org_wh_other" });
}, 60_000);

afterAll(async () => {
  await server?.close();
  await receiver?.close();
});

async function create(call: ReturnType<typeof api>, body: Record<string, unknown>) {
  return call("POST", BASE, body, idem());
}

async function createOk(call: ReturnType<typeof api>, body: Record<string, unknown> = {}) {
  const res = await create(call, { url: `${receiver.url}/default`, enabledEvents: ["*"], ...body });
  expect(res.status, res.text).toBe(201);
  return res.json;
}

function expectFieldError(res: { status: number; json: { code: string; errors?: Array<{ path: string }> } }, path: string) {
  expect(res.status).toBe(400);
  expect(res.json.code).toBe("VALIDATION_ERROR");
  expect(res.json.errors?.map((e) => e.path)).toContain(path);
}

describe("create and read", () => {
  it("answers the secret once, stores it sealed, and never shows it again", async () => {
    const res = await create(sandbox, {
      url: "http://localhost:3000/webhooks",
      description: "Ledger sync",
      enabledEvents: ["bank_transfer.completed", "card.authorization.declined"],
    });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({
      id: expect.stringMatching(/^we_/),
      organizationId: "org_wh",
      environment: "sandbox",
      url: "http://localhost:3000/webhooks",
      description: "Ledger sync",
      enabledEvents: ["bank_transfer.completed", "card.authorization.declined"],
      status: "enabled",
      disabledReason: null,
      secretRotation: null,
    });
    expect(res.json.secret).toMatch(SECRET);

    const row = await server.db.kysely.selectFrom("WebhookEndpoint").selectAll().where("id", "=", res.json.id).executeTakeFirstOrThrow();
    expect(row.secretSealed).not.toContain(res.json.secret.slice("whsec_".length));
    expect(openSecret(row.secretSealed, parseSecretsKey(server.config.webhooks.secretsKey as string))).toBe(res.json.secret);

    const got = await reader("GET", `${BASE}/${res.json.id}`);
    expect(got.status).toBe(200);
    const { secret: _secret, ...withoutSecret } = res.json;
    expect(got.json).toEqual(withoutSecret);
    expect(got.text).not.toContain("whsec_");
    const listed = await reader("GET", `${BASE}?limit=100`);
    expect(listed.text).not.toContain("whsec_");
    expect(listed.json.data.map((e: { id: string }) => e.id)).toContain(res.json.id);
  });

  it("replays the same endpoint (and secret) for the same Idempotency-Key", async () => {
    const headers = idem();
    const body = { url: "http://localhost:3000/once", enabledEvents: ["*"] };
    const first = await sandbox("POST", BASE, body, headers);
    const second = await sandbox("POST", BASE, body, headers);
    expect(second.status).toBe(201);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(second.json).toEqual(first.json);
    const rows = await server.db.kysely.selectFrom("WebhookEndpoint").select("id").where("url", "=", body.url).execute();
    expect(rows).toHaveLength(1);
    // The key's stored answer holds the secret sealed, never in plaintext (x-seal-stored-answer).
    const stored = await server.db.kysely
      .selectFrom("IdempotencyRecord")
      .select("responseBody")
      .where("key", "=", headers["idempotency-key"])
      .executeTakeFirstOrThrow();
    expect(stored.responseBody).not.toContain(first.json.secret);
    expect(stored.responseBody).not.toContain("whsec_");
    expect(openSecret(stored.responseBody as string, parseSecretsKey(server.config.webhooks.secretsKey as string))).toBe(first.text);
  });

  it("rotation's stored answer is sealed too, and its replay gives the same new secret", async () => {
    const endpoint = await createOk(sandbox);
    const headers = idem();
    const first = await sandbox("POST", `${BASE}/${endpoint.id}/rotate-secret`, { overlapSeconds: 60 }, headers);
    const replay = await sandbox("POST", `${BASE}/${endpoint.id}/rotate-secret`, { overlapSeconds: 60 }, headers);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.text).toBe(first.text);
    const stored = await server.db.kysely
      .selectFrom("IdempotencyRecord")
      .select("responseBody")
      .where("key", "=", headers["idempotency-key"])
      .executeTakeFirstOrThrow();
    expect(stored.responseBody).not.toContain("whsec_");
  });

  it("requires the Idempotency-Key on create", async () => {
    const res = await sandbox("POST", BASE, { url: "http://localhost:3000/x", enabledEvents: ["*"] });
    expect(res.status).toBe(400);
    expect(res.json.code).toBe("IDEMPOTENCY_KEY_REQUIRED");
  });
});

describe("validation names the field", () => {
  it.each([
    ["not a URL", { url: "not a url" }, "/body/url"],
    ["an ftp URL", { url: "ftp://files.example/hook" }, "/body/url"],
    ["a URL longer than 2048", { url: `https://hooks.example/${"a".repeat(2040)}` }, "/body/url"],
    ["a URL with credentials", { url: "https://user:pw@hooks.example/" }, "/body/url"],
    ["a description over 256 characters", { description: "d".repeat(257) }, "/body/description"],
    ["an unknown event type", { enabledEvents: ["bank_transfer.teleported"] }, "/body/enabledEvents/0"],
    ["no event type", { enabledEvents: [] }, "/body/enabledEvents"],
    ["a repeated event type", { enabledEvents: ["card.issued", "card.issued"] }, "/body/enabledEvents"],
    ["an unknown field", { secret: "whsec_mine" }, "/body/secret"],
  ])("%s → 400", async (_label, override, path) => {
    const res = await create(sandbox, { url: "https://hooks.example/", enabledEvents: ["*"], ...override });
    expectFieldError(res, path);
  });

  it("a missing url → 400 naming it", async () => {
    expectFieldError(await create(sandbox, { enabledEvents: ["*"] }), "/body/url");
  });
});

describe("URL rules per environment", () => {
  it.each([
    ["http", "http://1.1.1.1/hooks"],
    ["loopback", "https://127.0.0.1/"],
    ["private", "https://10.0.0.1/"],
    ["private 192.168", "https://192.168.1.20/hooks"],
    ["metadata", "https://169.254.169.254/latest/meta-data"],
    ["link-local", "https://169.254.10.1/"],
    ["IPv6 loopback", "https://[::1]/"],
    ["IPv4-mapped IPv6", "https://[::ffff:127.0.0.1]/"],
    ["localhost", "https://localhost/"],
  ])("production refuses a %s URL (400 /body/url)", async (_label, url) => {
    const res = await create(production, { url, enabledEvents: ["*"] });
    expectFieldError(res, "/body/url");
    expect(await server.db.kysely.selectFrom("WebhookEndpoint").select("id").where("url", "=", url).execute()).toEqual([]);
  });

  it("production accepts an https URL with a public address", async () => {
    const res = await create(production, { url: "https://1.1.1.1/hooks", enabledEvents: ["*"] });
    expect(res.status, res.text).toBe(201);
    expect(res.json.environment).toBe("production");
  });

  it("sandbox accepts http://localhost and private addresses (local development)", async () => {
    for (const url of ["http://localhost:3000/webhooks", "http://10.0.0.1/hooks", "http://127.0.0.1:9/x"]) {
      const res = await create(sandbox, { url, enabledEvents: ["*"] });
      expect(res.status, `${url}: ${res.text}`).toBe(201);
    }
  });

  it("the URL's DNS check runs after the Idempotency-Key's decision: a replay answers while the host does not resolve", async () => {
    const host = "hooks.dns-check.example";
    const lookups: string[] = [];
    let dnsUp = true;
    server.config.webhooks.resolve = async (name) => {
      lookups.push(name);
      if (!dnsUp) throw Object.assign(new Error(`getaddrinfo EAI_AGAIN ${name}`), { code: "EAI_AGAIN" });
      return ["93.184.216.34"];
    };
    try {
      const body = { url: `https://${host}/coinplane`, enabledEvents: ["*"] };
      const key = idem();
      const created = await production("POST", BASE, body, key);
      expect(created.status, created.text).toBe(201);
      const patchKey = idem();
      const patched = await production("PATCH", `${BASE}/${created.json.id}`, { url: `https://${host}/v2` }, patchKey);
      expect(patched.status, patched.text).toBe(200);
      expect(lookups).toEqual([host, host]);

      dnsUp = false;
      // The same keys: their stored answers (the secret included), and no lookup at all.
      const replay = await production("POST", BASE, body, key);
      expect(replay.status).toBe(201);
      expect(replay.headers.get("idempotent-replayed")).toBe("true");
      expect(replay.text).toBe(created.text);
      const patchReplay = await production("PATCH", `${BASE}/${created.json.id}`, { url: `https://${host}/v2` }, patchKey);
      expect(patchReplay.headers.get("idempotent-replayed")).toBe("true");
      expect(patchReplay.text).toBe(patched.text);
      expect(lookups).toHaveLength(2);
      // A new key runs the check: the documented refusal.
      const refused = await production("POST", BASE, body, idem());
      expectFieldError(refused, "/body/url");
      expect(refused.text).toContain(`host ${host} could not be resolved`);
      expect(lookups).toHaveLength(3);
    } finally {
      server.config.webhooks.resolve = undefined;
    }
  });

  it("PATCH applies the same rules to a new url", async () => {
    const endpoint = (await create(production, { url: "https://1.1.1.1/a", enabledEvents: ["*"] })).json;
    expectFieldError(await production("PATCH", `${BASE}/${endpoint.id}`, { url: "https://10.0.0.1/" }), "/body/url");
    expectFieldError(await production("PATCH", `${BASE}/${endpoint.id}`, { url: "http://1.1.1.1/" }), "/body/url");
    expect((await production("GET", `${BASE}/${endpoint.id}`)).json.url).toBe("https://1.1.1.1/a");
  });
});

describe("scopes and isolation", () => {
  it("403 without a webhooks scope; read cannot write", async () => {
    expect((await create(noWebhooks, { url: "https://hooks.example/", enabledEvents: ["*"] })).status).toBe(403);
    expect((await noWebhooks("GET", BASE)).status).toBe(403);
    expect((await noWebhooks("GET", "/api/v2/agent/events")).status).toBe(403);
    expect((await create(reader, { url: "https://hooks.example/", enabledEvents: ["*"] })).status).toBe(403);
    const endpoint = await createOk(sandbox);
    expect((await reader("DELETE", `${BASE}/${endpoint.id}`)).status).toBe(403);
    expect((await reader("POST", `${BASE}/${endpoint.id}/rotate-secret`, {}, idem())).status).toBe(403);
  });

  it("another organization or environment sees 404 and an empty list", async () => {
    const endpoint = await createOk(sandbox);
    for (const call of [otherOrg, production]) {
      expect((await call("GET", `${BASE}/${endpoint.id}`)).status).toBe(404);
      expect((await call("PATCH", `${BASE}/${endpoint.id}`, { enabled: false })).status).toBe(404);
      expect((await call("POST", `${BASE}/${endpoint.id}/rotate-secret`, {}, idem())).status).toBe(404);
      expect((await call("POST", `${BASE}/${endpoint.id}/test`, undefined, idem())).status).toBe(404);
      expect((await call("GET", `${BASE}/${endpoint.id}/deliveries`)).status).toBe(404);
      expect((await call("DELETE", `${BASE}/${endpoint.id}`)).status).toBe(404);
      const listed = await call("GET", `${BASE}?limit=100`);
      expect(listed.json.data.map((e: { id: string }) => e.id)).not.toContain(endpoint.id);
      // A cursor from another tenant's list is refused, not used.
      expectFieldError(await call("GET", `${BASE}?startingAfter=${endpoint.id}`), "/query/startingAfter");
    }
    expect((await sandbox("GET", `${BASE}/${endpoint.id}`)).status).toBe(200);
  });
});

describe("list", () => {
  it("pages newest first with a cursor", async () => {
    const key = api(server.url, (await server.createKey({ organizationId: "org_wh_pages", scopes: ["webhooks:write"] })).key);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await createOk(key, { url: `http://localhost/${i}` })).id);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await key("GET", `${BASE}?limit=2${cursor ? `&startingAfter=${cursor}` : ""}`);
      expect(res.status).toBe(200);
      expect(res.json.data.length).toBeLessThanOrEqual(2);
      seen.push(...res.json.data.map((e: { id: string }) => e.id));
      expect(res.json.nextCursor).toBe(res.json.hasMore ? res.json.data.at(-1).id : null);
      cursor = res.json.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual([...ids].reverse());
  });

  it("refuses a bad limit or cursor", async () => {
    expectFieldError(await reader("GET", `${BASE}?limit=0`), "/query/limit");
    expectFieldError(await reader("GET", `${BASE}?limit=101`), "/query/limit");
    expectFieldError(await reader("GET", `${BASE}?startingAfter=nope`), "/query/startingAfter");
    expectFieldError(await reader("GET", `${BASE}?startingAfter=we_unknown123`), "/query/startingAfter");
  });
});

describe("update, rotate, delete", () => {
  it("PATCH changes the given fields only and toggles enabled", async () => {
    const endpoint = await createOk(sandbox, { description: "first", enabledEvents: ["card.issued"] });
    const patched = await sandbox("PATCH", `${BASE}/${endpoint.id}`, {
      enabledEvents: ["card.frozen", "card.unfrozen"],
      description: null,
    });
    expect(patched.status).toBe(200);
    expect(patched.json).toMatchObject({ enabledEvents: ["card.frozen", "card.unfrozen"], description: null, url: endpoint.url });
    const disabled = await sandbox("PATCH", `${BASE}/${endpoint.id}`, { enabled: false });
    expect(disabled.json).toMatchObject({ status: "disabled", disabledReason: "requested" });
    expect((await sandbox("POST", `${BASE}/${endpoint.id}/test`, undefined, idem())).json.code).toBe("STATE_CONFLICT");
    const enabled = await sandbox("PATCH", `${BASE}/${endpoint.id}`, { enabled: true });
    expect(enabled.json).toMatchObject({ status: "enabled", disabledReason: null });
    expect(await reader("GET", `${BASE}/${endpoint.id}`)).toMatchObject({ json: enabled.json });
    expectFieldError(await sandbox("PATCH", `${BASE}/${endpoint.id}`, { enabledEvents: ["nope"] }), "/body/enabledEvents/0");
    expect((await sandbox("PATCH", `${BASE}/${endpoint.id}`, {})).status).toBe(400);
  });

  it("rotation: a new secret once, the old one kept sealed for the overlap", async () => {
    const endpoint = await createOk(sandbox);
    const key = parseSecretsKey(server.config.webhooks.secretsKey as string);
    const before = Date.now();
    const rotated = await sandbox("POST", `${BASE}/${endpoint.id}/rotate-secret`, { overlapSeconds: 3600 }, idem());
    expect(rotated.status).toBe(200);
    expect(rotated.json.secret).toMatch(SECRET);
    expect(rotated.json.secret).not.toBe(endpoint.secret);
    const expiresAt = Date.parse(rotated.json.secretRotation.previousSecretExpiresAt);
    expect(expiresAt).toBeGreaterThanOrEqual(before + 3600_000 - 1000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 3600_000 + 1000);
    const row = await server.db.kysely.selectFrom("WebhookEndpoint").selectAll().where("id", "=", endpoint.id).executeTakeFirstOrThrow();
    expect(openSecret(row.secretSealed, key)).toBe(rotated.json.secret);
    expect(openSecret(row.previousSecretSealed as string, key)).toBe(endpoint.secret);
    const got = await reader("GET", `${BASE}/${endpoint.id}`);
    expect(got.json.secretRotation).toEqual(rotated.json.secretRotation);
    expect(got.text).not.toContain("whsec_");

    // Default overlap: one day. Rotating again makes the last secret the previous one.
    const again = await sandbox("POST", `${BASE}/${endpoint.id}/rotate-secret`, undefined, idem());
    expect(again.status).toBe(200);
    expect(Date.parse(again.json.secretRotation.previousSecretExpiresAt) - Date.now()).toBeGreaterThan(86_400_000 - 60_000);
    const row2 = await server.db.kysely.selectFrom("WebhookEndpoint").selectAll().where("id", "=", endpoint.id).executeTakeFirstOrThrow();
    expect(openSecret(row2.previousSecretSealed as string, key)).toBe(rotated.json.secret);

    // overlapSeconds 0 retires the old secret at once.
    const now = await sandbox("POST", `${BASE}/${endpoint.id}/rotate-secret`, { overlapSeconds: 0 }, idem());
    expect(now.json.secretRotation).toBeNull();
    const row3 = await server.db.kysely.selectFrom("WebhookEndpoint").selectAll().where("id", "=", endpoint.id).executeTakeFirstOrThrow();
    expect(row3.previousSecretSealed).toBeNull();

    expectFieldError(
      await sandbox("POST", `${BASE}/${endpoint.id}/rotate-secret`, { overlapSeconds: 604_801 }, idem()),
      "/body/overlapSeconds",
    );
    expectFieldError(await sandbox("POST", `${BASE}/${endpoint.id}/rotate-secret`, { overlapSeconds: -1 }, idem()), "/body/overlapSeconds");
  });

  it("DELETE removes it (204), then 404", async () => {
    const endpoint = await createOk(sandbox);
    const res = await sandbox("DELETE", `${BASE}/${endpoint.id}`);
    expect(res.status).toBe(204);
    expect((await reader("GET", `${BASE}/${endpoint.id}`)).status).toBe(404);
    expect((await sandbox("DELETE", `${BASE}/${endpoint.id}`)).status).toBe(404);
  });

  it("an unknown id, whatever its form → 404; past 255 characters → 400", async () => {
    expect((await reader("GET", `${BASE}/we_doesnotexist1`)).status).toBe(404);
    expect((await reader("GET", `${BASE}/card_123`)).status).toBe(404);
    expectFieldError(await reader("GET", `${BASE}/${"w".repeat(256)}`), "/params/endpointId");
  });
});

describe("test event, deliveries and retry", () => {
  it("the test event goes to this endpoint only, is delivered, listed, and can be retried", async () => {
    const key = api(server.url, (await server.createKey({ organizationId: "org_wh_dlv", scopes: ["webhooks:write"] })).key);
    const target = await createOk(key, { url: `${receiver.url}/target`, enabledEvents: ["card.issued"] });
    const bystander = await createOk(key, { url: `${receiver.url}/bystander`, enabledEvents: ["*"] });

    const sent = await key("POST", `${BASE}/${target.id}/test`, undefined, idem());
    expect(sent.status, sent.text).toBe(202);
    const { secret: _secret, ...endpointDto } = target;
    expect(sent.json).toMatchObject({
      id: expect.stringMatching(/^evt_/),
      type: "webhook_endpoint.tested",
      organizationId: "org_wh_dlv",
      environment: "sandbox",
      // A test event describes no change; `timestamp` is createdAt under the Standard Webhooks name.
      simulated: true,
      timestamp: sent.json.createdAt,
    });
    expect(sent.json.data).toEqual(endpointDto);
    expect((await key("GET", `/api/v2/agent/events/${sent.json.id}`)).json).toEqual(sent.json);

    const [receipt] = await receiver.waitFor("/target", 1, 10_000);
    expect(receipt?.headers["webhook-id"]).toBe(sent.json.id);
    expect(JSON.parse(receipt?.body ?? "{}")).toEqual(sent.json);

    const deliveries = await waitForDelivery(key, target.id, (d) => d.status === "succeeded");
    expect(deliveries.data).toHaveLength(1);
    const [delivery] = deliveries.data;
    expect(delivery).toMatchObject({
      id: expect.stringMatching(/^wdl_/),
      endpointId: target.id,
      eventId: sent.json.id,
      eventType: "webhook_endpoint.tested",
      status: "succeeded",
      attemptCount: 1,
      nextAttemptAt: null,
    });
    expect(delivery.attempts).toEqual([
      { attemptNumber: 1, attemptedAt: expect.any(String), httpStatus: 200, durationMs: expect.any(Number), error: null },
    ]);
    expect((await key("GET", `${BASE}/${bystander.id}/deliveries`)).json.data).toEqual([]);
    expect(receiver.at("/bystander")).toEqual([]);

    // Status filter.
    expect((await key("GET", `${BASE}/${target.id}/deliveries?status=failed`)).json.data).toEqual([]);
    expect((await key("GET", `${BASE}/${target.id}/deliveries?status=succeeded`)).json.data).toHaveLength(1);
    expectFieldError(await key("GET", `${BASE}/${target.id}/deliveries?status=lost`), "/query/status");

    // Retry: pending and due now, then delivered again with the same webhook-id.
    const retried = await key("POST", `${BASE}/${target.id}/deliveries/${delivery.id}/retry`, undefined, idem());
    expect(retried.status, retried.text).toBe(202);
    expect(retried.json).toMatchObject({ id: delivery.id, status: "pending", nextAttemptAt: expect.any(String) });
    const receipts = await receiver.waitFor("/target", 2, 10_000);
    expect(receipts[1]?.headers["webhook-id"]).toBe(sent.json.id);
    const after = await waitForDelivery(key, target.id, (d) => d.attemptCount === 2 && d.status === "succeeded");
    expect(after.data[0].attempts.map((a: { attemptNumber: number }) => a.attemptNumber)).toEqual([1, 2]);

    // Another endpoint's delivery, unknown ids.
    expect((await key("POST", `${BASE}/${bystander.id}/deliveries/${delivery.id}/retry`, undefined, idem())).status).toBe(404);
    expect((await key("POST", `${BASE}/${target.id}/deliveries/wdl_unknown0000/retry`, undefined, idem())).status).toBe(404);
    expect((await otherOrg("POST", `${BASE}/${target.id}/deliveries/${delivery.id}/retry`, undefined, idem())).status).toBe(404);
  }, 30_000);

  it("pages deliveries with a cursor", async () => {
    const key = api(server.url, (await server.createKey({ organizationId: "org_wh_dlv_pages", scopes: ["webhooks:write"] })).key);
    const endpoint = await createOk(key, { url: `${receiver.url}/pages` });
    const events: string[] = [];
    for (let i = 0; i < 3; i++) events.push((await key("POST", `${BASE}/${endpoint.id}/test`, undefined, idem())).json.id);
    const first = await key("GET", `${BASE}/${endpoint.id}/deliveries?limit=2`);
    expect(first.json.hasMore).toBe(true);
    const second = await key("GET", `${BASE}/${endpoint.id}/deliveries?limit=2&startingAfter=${first.json.nextCursor}`);
    expect(second.json).toMatchObject({ hasMore: false, nextCursor: null });
    expect([...first.json.data, ...second.json.data].map((d: { eventId: string }) => d.eventId)).toEqual([...events].reverse());
    expectFieldError(await key("GET", `${BASE}/${endpoint.id}/deliveries?startingAfter=wdl_notoneofthese`), "/query/startingAfter");
  });
});

// biome-ignore lint/suspicious/noExplicitAny: response bodies are asserted field by field
async function waitForDelivery(call: ReturnType<typeof api>, endpointId: string, done: (delivery: any) => boolean): Promise<any> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const res = await call("GET", `${BASE}/${endpointId}/deliveries`);
    if (res.json.data.length > 0 && done(res.json.data[0])) return res.json;
    if (Date.now() > deadline) throw new Error(`delivery not done: ${res.text}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
