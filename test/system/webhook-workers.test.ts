// Webhook delivery across instances: two real server processes on one PostgreSQL database, both running the delivery
// worker (polling every 10 ms in small batches, so they compete for the same queue). Events are written through both;
// a local receiver answers 500 to the first request of every event and 200 to the next. Each event must arrive exactly
// twice (one failed attempt, one retry) — never a third time, which would mean two instances sent the same attempt.
import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyWebhook } from "../../sdk/src/webhooks/standard-webhooks.ts";
import { createKey, createSystemFixture, type ServerProcess, type SystemFixture } from "../helpers/server-process.ts";
import { api } from "../helpers/test-server.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../helpers/webhook-receiver.ts";

const SECRETS_KEY = "c3lzdGVtLXdlYmhvb2stc2VjcmV0cy1rZXktMzJieXQ=";
const EVENTS = 120;
const ORG = "org_sys_webhooks";

let fixture: SystemFixture;
let servers: [ServerProcess, ServerProcess];
let receiver: WebhookReceiver;
let direct: pg.Client;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  fixture = await createSystemFixture();
  const env = {
    WEBHOOK_SECRETS_KEY: SECRETS_KEY,
    WEBHOOK_POLL_INTERVAL_MS: "10",
    WEBHOOK_BATCH_SIZE: "4",
    WEBHOOK_RETRY_SCHEDULE_SECONDS: "0.05,0.05,0.05",
    WEBHOOK_ATTEMPT_TIMEOUT_MS: "2000",
    WEBHOOK_LEASE_SECONDS: "10",
    LOG_LEVEL: "debug",
  };
  // The first applies the migrations; the second starts on the migrated database.
  const first = await fixture.start({ env });
  servers = [first, await fixture.start({ env })];
  direct = new pg.Client({ connectionString: fixture.db.url });
  await direct.connect();
}, 180_000);

afterAll(async () => {
  await direct?.end().catch(() => {});
  await fixture?.close();
  await receiver?.close();
});

describe("two instances delivering webhooks", () => {
  it("never send the same attempt twice: each event arrives exactly once per attempt", async () => {
    const seen = new Map<string, number>();
    // First request of an event → 500, later ones → 200 (decided on the webhook-id, not on arrival order).
    receiver.on("/hooks", (_n, receipt) => {
      const id = String(receipt.headers["webhook-id"]);
      const n = (seen.get(id) ?? 0) + 1;
      seen.set(id, n);
      return { status: n === 1 ? 500 : 200 };
    });

    const key = await createKey(servers[0], { organizationId: ORG, scopes: ["wallets:write", "webhooks:write"] });
    const calls = servers.map((s) => api(s.url, key));
    const created = await (calls[0] as ReturnType<typeof api>)(
      "POST",
      "/api/v2/agent/webhook-endpoints",
      { url: `${receiver.url}/hooks`, enabledEvents: ["wallet.created"] },
      { "idempotency-key": randomUUID() },
    );
    expect(created.status).toBe(201);
    const secret = created.json.secret as string;
    for (let i = 0; i < EVENTS; i += 10) {
      const batch = Array.from({ length: 10 }, (_, j) =>
        (calls[(i + j) % 2] as ReturnType<typeof api>)("POST", "/api/v1/wallets", { chain: "base" }),
      );
      for (const res of await Promise.all(batch)) expect(res.status).toBe(201);
    }

    const deadline = Date.now() + 60_000;
    for (;;) {
      const { rows } = await direct.query(`SELECT count(*)::int AS n FROM "WebhookDelivery" WHERE status = 'succeeded'`);
      if (rows[0].n === EVENTS) break;
      if (Date.now() > deadline) throw new Error(`only ${rows[0].n} of ${EVENTS} deliveries succeeded`);
      await new Promise((r) => setTimeout(r, 100));
    }
    await new Promise((r) => setTimeout(r, 300)); // a duplicate send would land now

    const receipts = receiver.at("/hooks");
    const perEvent = new Map<string, number>();
    for (const r of receipts) perEvent.set(String(r.headers["webhook-id"]), (perEvent.get(String(r.headers["webhook-id"])) ?? 0) + 1);
    expect(perEvent.size).toBe(EVENTS);
    expect([...perEvent.values()].every((n) => n === 2)).toBe(true);
    expect(receipts).toHaveLength(2 * EVENTS);
    for (const r of receipts.slice(0, 5)) expect(() => verifyWebhook(r.body, r.headers, secret)).not.toThrow();

    const attempts = await direct.query(
      `SELECT "attemptNumber", "httpStatus", count(*)::int AS n FROM "WebhookDeliveryAttempt" GROUP BY 1, 2 ORDER BY 1`,
    );
    expect(attempts.rows).toEqual([
      { attemptNumber: 1, httpStatus: 500, n: EVENTS },
      { attemptNumber: 2, httpStatus: 200, n: EVENTS },
    ]);
    // Both instances took part (each logs the attempts it made).
    for (const server of servers) expect(server.output().stdout).toContain("webhook delivered");
  });
});
