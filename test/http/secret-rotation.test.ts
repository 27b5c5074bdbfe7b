// Rotating secrets without downtime (README "Operations"): during a roll the previous ADMIN_TOKEN and SCHEDULER_SECRET
// are still accepted, and endpoint secrets sealed under the previous WEBHOOK_SECRETS_KEY are resealed under the new one
// (npm run reseal:webhook-secrets → server/domain/webhooks/reseal-webhook-secrets.ts) without changing the secret itself.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resealWebhookSecrets } from "../../server/domain/webhooks/reseal-webhook-secrets.ts";
import { openSecret, openSecretWithAny, parseSecretsKey } from "../../server/lib/webhooks/secret-box.ts";
import { api, startTestServer, type TestServer } from "../helpers/test-server.ts";

const OLD_KEY = "dGVzdC13ZWJob29rLXNlY3JldHMta2V5LTMyYnl0ZXM="; // the test server's default
const NEW_KEY = Buffer.alloc(32, 7).toString("base64");

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({
    env: { ADMIN_TOKEN_PREVIOUS: "old-admin-token-0123456789", SCHEDULER_SECRET_PREVIOUS: "old-scheduler-secret" },
  });
});
afterAll(() => server?.close());

describe("ADMIN_TOKEN and SCHEDULER_SECRET rotation", () => {
  it("accepts the current and the previous admin token, nothing else", async () => {
    const list = (token: string) => api(server.url, token)("GET", "/api/admin/keys?organizationId=org_rotation");
    expect((await list(server.adminToken)).status).toBe(200);
    expect((await list("old-admin-token-0123456789")).status).toBe(200);
    expect((await list("old-admin-token-012345678")).status).toBe(401);
  });

  it("accepts the current and the previous scheduler secret, nothing else", async () => {
    const dispatch = (secret: string) =>
      api(server.url)("POST", "/api/v2/agent/payments/corridor/workflows/dispatch", undefined, { "x-scheduler-secret": secret });
    expect((await dispatch("test-scheduler-secret")).status).toBe(200);
    expect((await dispatch("old-scheduler-secret")).status).toBe(200);
    expect((await dispatch("another-secret")).status).toBe(401);
  });
});

describe("WEBHOOK_SECRETS_KEY rotation", () => {
  it("reseals every endpoint secret under the new key; the secret itself is unchanged; a second run finds nothing", async () => {
    const key = (await server.createKey({ organizationId: "org_rotation", scopes: ["webhooks:write"] })).key;
    const created = await api(server.url, key)(
      "POST",
      "/api/v2/agent/webhook-endpoints",
      { url: "https://hooks.example.com/rotation", enabledEvents: ["*"] },
      { "idempotency-key": randomUUID() },
    );
    expect(created.status, created.text).toBe(201);
    const secret = created.json.secret as string;
    const sealed = async () =>
      (
        await server.db.kysely
          .selectFrom("WebhookEndpoint")
          .select("secretSealed")
          .where("id", "=", created.json.id)
          .executeTakeFirstOrThrow()
      ).secretSealed;
    const before = await sealed();
    expect(openSecret(before, parseSecretsKey(OLD_KEY))).toBe(secret);

    const keys = { current: parseSecretsKey(NEW_KEY), previous: parseSecretsKey(OLD_KEY) };
    const first = await resealWebhookSecrets(server.db.kysely, keys);
    expect(first.resealed).toBeGreaterThanOrEqual(1);
    expect(first.unreadable).toBe(0);
    const after = await sealed();
    expect(openSecret(after, keys.current)).toBe(secret);
    expect(() => openSecret(after, keys.previous)).toThrow(/authentication failed/);
    // During the roll a worker holding both keys opens either form.
    expect(openSecretWithAny(before, [keys.current, keys.previous])).toBe(secret);
    expect(await resealWebhookSecrets(server.db.kysely, keys)).toEqual({ resealed: 0, unreadable: 0 });
  });
});
