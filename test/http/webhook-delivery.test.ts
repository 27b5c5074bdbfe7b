// Webhook delivery end to end: a write emits an event, the delivery worker of the test server sends it signed to a real
// local receiver, retries on 500s and timeouts on a short schedule, gives up at its end (disabling an endpoint that
// failed throughout, with an event saying so), never follows redirects, and resends a delivery whose worker died.
import { randomUUID } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyWebhook } from "../../sdk/src/webhooks/standard-webhooks.ts";
import { newId } from "../../server/lib/ids.ts";
import { parseSecretsKey, sealSecret } from "../../server/lib/webhooks/secret-box.ts";
import { claimDeliveries } from "../../server/webhooks/claim-deliveries.ts";
import { recordAttempt } from "../../server/webhooks/record-attempt.ts";
import { api, startTestServer, type TestServer } from "../helpers/test-server.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../helpers/webhook-receiver.ts";

const ATTEMPT_TIMEOUT_MS = 300;
const SCHEDULE = [0.05, 0.05, 0.05];

let server: TestServer;
let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  server = await startTestServer({
    webhookDelivery: true,
    env: {
      WEBHOOK_POLL_INTERVAL_MS: "20",
      WEBHOOK_ATTEMPT_TIMEOUT_MS: String(ATTEMPT_TIMEOUT_MS),
      WEBHOOK_RETRY_SCHEDULE_SECONDS: SCHEDULE.join(","),
      WEBHOOK_LEASE_SECONDS: "1",
    },
  });
});
afterAll(async () => {
  await server?.close();
  await receiver?.close();
});

const secret = () => `whsec_${Buffer.from(newId("k").padEnd(32, "x")).toString("base64")}`;

type Org = { organizationId: string; call: ReturnType<typeof api> };

/** A fresh organization (so each test's events reach only its own endpoints) with a key for v1 wallets and webhooks. */
async function organization(): Promise<Org> {
  const organizationId = newId("org");
  const key = (await server.createKey({ organizationId, scopes: ["wallets:write", "webhooks:write"] })).key;
  return { organizationId, call: api(server.url, key) };
}

const idempotent = () => ({ "idempotency-key": randomUUID() });

/** A sandbox endpoint for every event type, through POST /api/v2/agent/webhook-endpoints; its secret as answered once. */
async function createEndpoint(org: Org, path: string): Promise<{ id: string; secret: string }> {
  const res = await org.call(
    "POST",
    "/api/v2/agent/webhook-endpoints",
    { url: `${receiver.url}${path}`, enabledEvents: ["*"] },
    idempotent(),
  );
  if (res.status !== 201) throw new Error(`create endpoint: ${res.status} ${JSON.stringify(res.json)}`);
  return { id: res.json.id, secret: res.json.secret };
}

/**
 * A production endpoint whose URL the API would refuse today, written directly: it stands for a host that resolved to a
 * public address when the endpoint was created and resolves to loopback now (DNS rebinding), or an address literal.
 */
async function insertProductionEndpoint(organizationId: string, url: string): Promise<{ id: string }> {
  const now = new Date();
  const id = newId("we");
  await server.db.kysely
    .insertInto("WebhookEndpoint")
    .values({
      id,
      organizationId,
      environment: "production",
      url,
      description: null,
      enabledEvents: ["*"],
      status: "enabled",
      disabledReason: null,
      secretSealed: sealSecret(secret(), parseSecretsKey(server.config.webhooks.secretsKey as string)),
      createdAt: now,
      updatedAt: now,
    })
    .execute();
  return { id };
}

/** An event with a pending delivery to `endpointId`, written directly (for environments the v1 API does not write). */
async function insertEventAndDelivery(
  organizationId: string,
  endpointId: string,
  environment = "sandbox",
  extra: { leaseUntil?: Date; attemptCount?: number; nextAttemptAt?: Date } = {},
) {
  const now = new Date();
  const eventId = newId("evt");
  const deliveryId = newId("wdl");
  await server.db.kysely.transaction().execute(async (tx) => {
    await tx
      .insertInto("Event")
      .values({
        id: eventId,
        organizationId,
        environment,
        type: "wallet.created",
        resourceId: "wal_x",
        data: JSON.stringify({ id: "wal_x" }),
        simulated: null,
        createdAt: now,
      })
      .execute();
    await tx
      .insertInto("WebhookDelivery")
      .values({
        id: deliveryId,
        endpointId,
        eventId,
        organizationId,
        environment,
        eventType: "wallet.created",
        status: "pending",
        nextAttemptAt: extra.nextAttemptAt ?? now,
        attemptCount: extra.attemptCount ?? 0,
        createdAt: now,
        ...(extra.leaseUntil ? { leaseUntil: extra.leaseUntil, leaseToken: "a-worker-that-died" } : {}),
      })
      .execute();
  });
  return { eventId, deliveryId };
}

async function deliveryOf(endpointId: string) {
  return server.db.kysely.selectFrom("WebhookDelivery").selectAll().where("endpointId", "=", endpointId).executeTakeFirstOrThrow();
}

async function endpointStatus(endpointId: string) {
  const row = await server.db.kysely.selectFrom("WebhookEndpoint").select("status").where("id", "=", endpointId).executeTakeFirstOrThrow();
  return row.status;
}

async function attemptsOf(deliveryId: string) {
  return server.db.kysely
    .selectFrom("WebhookDeliveryAttempt")
    .selectAll()
    .where("deliveryId", "=", deliveryId)
    .orderBy("attemptNumber")
    .execute();
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("webhook delivery", () => {
  it("delivers the event of a write, signed so that the standardwebhooks library verifies it", async () => {
    const org = await organization();
    const { organizationId, call } = org;
    const endpoint = await createEndpoint(org, "/signed");
    const wallet = await call("POST", "/api/v1/wallets", { chain: "base", label: "hooked" });
    expect(wallet.status).toBe(201);

    const [receipt] = await receiver.waitFor("/signed", 1);
    if (!receipt) throw new Error("no receipt");
    const headers = {
      "webhook-id": String(receipt.headers["webhook-id"]),
      "webhook-timestamp": String(receipt.headers["webhook-timestamp"]),
      "webhook-signature": String(receipt.headers["webhook-signature"]),
    };
    const verified = new Webhook(endpoint.secret).verify(receipt.body, headers) as Record<string, unknown>;
    expect(verifyWebhook(receipt.body, receipt.headers, endpoint.secret)).toEqual(verified);
    expect(verified).toMatchObject({
      type: "wallet.created",
      organizationId,
      environment: "sandbox",
      simulated: true,
      data: wallet.json,
    });
    expect(verified.id).toMatch(/^evt_/);
    expect(headers["webhook-id"]).toBe(verified.id);
    expect(Math.abs(Number(headers["webhook-timestamp"]) - Date.now() / 1000)).toBeLessThan(10);
    expect(receipt.headers["content-type"]).toBe("application/json");
    expect(receipt.headers["user-agent"]).toBe("Coinplane-Webhooks/1");
    // Another secret does not verify: the signature is bound to the endpoint's secret.
    expect(() => new Webhook(secret()).verify(receipt.body, headers)).toThrow();

    const delivery = await until(
      () => deliveryOf(endpoint.id),
      (d) => d.status === "succeeded",
    );
    expect(delivery).toMatchObject({ eventId: verified.id, attemptCount: 1, lastHttpStatus: 200, nextAttemptAt: null, leaseToken: null });
    const [attempt] = await attemptsOf(delivery.id);
    expect(attempt).toMatchObject({ attemptNumber: 1, httpStatus: 200, error: null });
    expect(attempt?.durationMs).toBeGreaterThanOrEqual(0);
    expect(attempt?.id).toMatch(/^wda_/);
  });

  it("signs with both secrets during a rotation overlap, and with the new one alone after it", async () => {
    const org = await organization();
    const overlapping = await createEndpoint(org, "/rotating");
    const expired = await createEndpoint(org, "/rotated");
    const rotate = async (id: string, overlapSeconds: number) => {
      const res = await org.call("POST", `/api/v2/agent/webhook-endpoints/${id}/rotate-secret`, { overlapSeconds }, idempotent());
      expect(res.status).toBe(200);
      return res.json.secret as string;
    };
    const old = overlapping.secret;
    const current = await rotate(overlapping.id, 60);
    // No overlap: the old secret stops signing at once.
    const expiredOld = expired.secret;
    const expiredCurrent = await rotate(expired.id, 0);
    const { call } = org;
    await call("POST", "/api/v1/wallets", { chain: "base" });

    const [during] = await receiver.waitFor("/rotating", 1);
    const [after] = await receiver.waitFor("/rotated", 1);
    if (!during || !after) throw new Error("no receipt");
    expect(String(during.headers["webhook-signature"]).split(" ")).toHaveLength(2);
    for (const s of [current, old]) expect(() => verifyWebhook(during.body, during.headers, s)).not.toThrow();
    expect(() => new Webhook(old).verify(during.body, during.headers as Record<string, string>)).not.toThrow();
    expect(String(after.headers["webhook-signature"]).split(" ")).toHaveLength(1);
    expect(() => verifyWebhook(after.body, after.headers, expiredCurrent)).not.toThrow();
    expect(() => verifyWebhook(after.body, after.headers, expiredOld)).toThrow();
  });

  it("retries after the receiver answers 500, with the same webhook-id, until it succeeds", async () => {
    const org = await organization();
    const { call } = org;
    receiver.on("/flaky", (n) => ({ status: n < 2 ? 500 : 204 }));
    const endpoint = await createEndpoint(org, "/flaky");
    await call("POST", "/api/v1/wallets", { chain: "base" });

    const receipts = await receiver.waitFor("/flaky", 3);
    expect(new Set(receipts.map((r) => r.headers["webhook-id"])).size).toBe(1);
    const delivery = await until(
      () => deliveryOf(endpoint.id),
      (d) => d.status === "succeeded",
    );
    expect(delivery.attemptCount).toBe(3);
    const attempts = await attemptsOf(delivery.id);
    expect(attempts.map((a) => [a.attemptNumber, a.httpStatus, a.error])).toEqual([
      [1, 500, "http_error"],
      [2, 500, "http_error"],
      [3, 204, null],
    ]);
    // The retry waited its scheduled 50 ms (±20%) after the failure.
    const gaps = receipts.slice(1).map((r, i) => r.receivedAt - (receipts[i] as { receivedAt: number }).receivedAt);
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(35);
    expect(receiver.at("/flaky")).toHaveLength(3);
  });

  it("times an attempt out after WEBHOOK_ATTEMPT_TIMEOUT_MS and retries it", async () => {
    const org = await organization();
    const { call } = org;
    receiver.on("/slow", (n) => (n === 0 ? { status: 200, delayMs: ATTEMPT_TIMEOUT_MS * 4 } : { status: 200 }));
    const endpoint = await createEndpoint(org, "/slow");
    await call("POST", "/api/v1/wallets", { chain: "base" });

    const delivery = await until(
      () => deliveryOf(endpoint.id),
      (d) => d.status === "succeeded",
    );
    const attempts = await attemptsOf(delivery.id);
    expect(attempts.map((a) => [a.httpStatus, a.error])).toEqual([
      [null, "timeout"],
      [200, null],
    ]);
    expect(attempts[0]?.durationMs).toBeGreaterThanOrEqual(ATTEMPT_TIMEOUT_MS - 5);
    expect(attempts[0]?.durationMs).toBeLessThan(ATTEMPT_TIMEOUT_MS * 4);
  });

  it("does not follow a redirect: a 3xx is a failed attempt and the target is never requested", async () => {
    const org = await organization();
    const { call } = org;
    receiver.on("/moved", () => ({ status: 302, headers: { location: `${receiver.url}/moved-target` } }));
    const endpoint = await createEndpoint(org, "/moved");
    await call("POST", "/api/v1/wallets", { chain: "base" });

    await receiver.waitFor("/moved", 2);
    const delivery = await deliveryOf(endpoint.id);
    const attempts = await until(
      () => attemptsOf(delivery.id),
      (a) => a.length >= 1,
    );
    expect(attempts[0]).toMatchObject({ httpStatus: 302, error: "redirect" });
    expect(receiver.at("/moved-target")).toHaveLength(0);
  });

  it("fails the delivery at the end of the schedule, disables an endpoint that failed throughout, and emits webhook_endpoint.disabled", async () => {
    const org = await organization();
    const { organizationId, call } = org;
    receiver.on("/down", () => ({ status: 503 }));
    const failing = await createEndpoint(org, "/down");
    await createEndpoint(org, "/watcher");
    await call("POST", "/api/v1/wallets", { chain: "base" });

    const delivery = await until(
      () => deliveryOf(failing.id),
      (d) => d.status === "failed",
    );
    expect(delivery).toMatchObject({ attemptCount: SCHEDULE.length + 1, nextAttemptAt: null, lastHttpStatus: 503 });
    expect(await attemptsOf(delivery.id)).toHaveLength(SCHEDULE.length + 1);
    expect(receiver.at("/down")).toHaveLength(SCHEDULE.length + 1);

    const endpoint = await server.db.kysely
      .selectFrom("WebhookEndpoint")
      .selectAll()
      .where("id", "=", failing.id)
      .executeTakeFirstOrThrow();
    expect(endpoint).toMatchObject({ status: "disabled", disabledReason: "failing" });
    const events = await server.db.kysely
      .selectFrom("Event")
      .selectAll()
      .where("organizationId", "=", organizationId)
      .where("type", "=", "webhook_endpoint.disabled")
      .execute();
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ resourceId: failing.id, environment: "sandbox" });
    const data = events[0]?.data as Record<string, unknown>;
    expect(data).toMatchObject({ id: failing.id, status: "disabled", disabledReason: "failing", url: `${receiver.url}/down` });
    expect(JSON.stringify(data)).not.toContain("whsec_");
    expect(JSON.stringify(data)).not.toContain("Sealed");

    // The organization's other endpoint hears about it, signed like any event.
    const heard = await until(
      async () => receiver.at("/watcher").map((r) => JSON.parse(r.body) as { type: string; data: { id: string } }),
      (bodies) => bodies.some((b) => b.type === "webhook_endpoint.disabled"),
    );
    expect(heard.find((b) => b.type === "webhook_endpoint.disabled")?.data.id).toBe(failing.id);

    // A disabled endpoint gets no more deliveries.
    const before = receiver.at("/down").length;
    await call("POST", "/api/v1/wallets", { chain: "base" });
    await receiver.waitFor("/watcher", 3);
    expect(receiver.at("/down")).toHaveLength(before);
  });

  it("a manual retry after the schedule gets one attempt: a failure fails that delivery alone, a success delivers it", async () => {
    const org = await organization();
    let healthy = false;
    receiver.on("/revived", () => ({ status: healthy ? 200 : 500 }));
    const endpoint = await createEndpoint(org, "/revived");
    await org.call("POST", "/api/v1/wallets", { chain: "base" });
    const exhausted = await until(
      () => deliveryOf(endpoint.id),
      (d) => d.status === "failed",
    );
    const enable = await org.call("PATCH", `/api/v2/agent/webhook-endpoints/${endpoint.id}`, { enabled: true }, idempotent());
    expect(enable.json).toMatchObject({ status: "enabled", disabledReason: null });
    const retry = () =>
      org.call("POST", `/api/v2/agent/webhook-endpoints/${endpoint.id}/deliveries/${exhausted.id}/retry`, undefined, idempotent());

    expect((await retry()).status).toBe(202);
    const again = await until(
      () => deliveryOf(endpoint.id),
      (d) => d.status === "failed" && d.attemptCount === SCHEDULE.length + 2,
    );
    expect(again.nextAttemptAt).toBeNull();
    expect(await endpointStatus(endpoint.id)).toBe("enabled");

    healthy = true;
    expect((await retry()).status).toBe(202);
    const delivered = await until(
      () => deliveryOf(endpoint.id),
      (d) => d.status === "succeeded",
    );
    expect(delivered.attemptCount).toBe(SCHEDULE.length + 3);
    expect(receiver.at("/revived")).toHaveLength(SCHEDULE.length + 3);
  });

  it("a manual retry does not use up the next automatic attempt: a failed one leaves the schedule as it was", async () => {
    const org = await organization();
    receiver.on("/manual", () => ({ status: 500 }));
    const endpoint = await createEndpoint(org, "/manual");
    // Automatic attempt 1 failed; attempt 2 is scheduled an hour from now.
    const scheduled = new Date(Date.now() + 3_600_000);
    const { deliveryId } = await insertEventAndDelivery(org.organizationId, endpoint.id, "sandbox", {
      attemptCount: 1,
      nextAttemptAt: scheduled,
    });
    const retry = () =>
      org.call("POST", `/api/v2/agent/webhook-endpoints/${endpoint.id}/deliveries/${deliveryId}/retry`, undefined, idempotent());

    expect((await retry()).status).toBe(202);
    const afterManual = await until(
      () => deliveryOf(endpoint.id),
      (d) => d.attemptCount === 2 && d.leaseToken === null,
    );
    // Attempt 2 in order, the manual one: it failed, and the automatic attempt 2 is still due when it was.
    expect(afterManual).toMatchObject({ status: "pending", manualAttemptCount: 1, manualRetry: false, lastHttpStatus: 500 });
    expect(new Date(afterManual.nextAttemptAt as Date).getTime()).toBe(scheduled.getTime());
    expect(receiver.at("/manual")).toHaveLength(1);

    // The scheduled attempt comes (made due now): automatic attempts 2, 3 and 4 — the schedule's last — then failed,
    // and the end of the schedule judges the endpoint as usual.
    await server.db.kysely.updateTable("WebhookDelivery").set({ nextAttemptAt: new Date() }).where("id", "=", deliveryId).execute();
    const failed = await until(
      () => deliveryOf(endpoint.id),
      (d) => d.status === "failed",
    );
    expect(failed).toMatchObject({ attemptCount: 1 + 1 + SCHEDULE.length, manualAttemptCount: 1, nextAttemptAt: null });
    expect(receiver.at("/manual")).toHaveLength(1 + SCHEDULE.length);
    expect((await attemptsOf(deliveryId)).map((a) => a.attemptNumber)).toEqual([2, 3, 4, 5]);
    expect(await endpointStatus(endpoint.id)).toBe("disabled");
  });

  it("a manual retry that succeeds ends the delivery: the scheduled automatic attempt is not sent", async () => {
    const org = await organization();
    receiver.on("/manual-ok", () => ({ status: 204 }));
    const endpoint = await createEndpoint(org, "/manual-ok");
    const { deliveryId } = await insertEventAndDelivery(org.organizationId, endpoint.id, "sandbox", {
      attemptCount: 1,
      nextAttemptAt: new Date(Date.now() + 3_600_000),
    });
    const retried = await org.call(
      "POST",
      `/api/v2/agent/webhook-endpoints/${endpoint.id}/deliveries/${deliveryId}/retry`,
      undefined,
      idempotent(),
    );
    expect(retried.status).toBe(202);
    const delivered = await until(
      () => deliveryOf(endpoint.id),
      (d) => d.status === "succeeded",
    );
    expect(delivered).toMatchObject({
      attemptCount: 2,
      manualAttemptCount: 1,
      manualRetry: false,
      resumeAttemptAt: null,
      nextAttemptAt: null,
    });
    await new Promise((r) => setTimeout(r, 200));
    expect(receiver.at("/manual-ok")).toHaveLength(1);
  });

  it("fails the delivery but keeps the endpoint when another delivery to it succeeded meanwhile", async () => {
    const org = await organization();
    const { organizationId, call } = org;
    receiver.on("/partly", () => ({ status: 500 }));
    const endpoint = await createEndpoint(org, "/partly");
    await call("POST", "/api/v1/wallets", { chain: "base" });
    await receiver.waitFor("/partly", 1);
    // A success to the same endpoint after the failing delivery was created.
    const other = await insertEventAndDelivery(organizationId, endpoint.id);
    await server.db.kysely
      .updateTable("WebhookDelivery")
      .set({ status: "succeeded", nextAttemptAt: null, attemptCount: 1, lastAttemptAt: new Date(), lastHttpStatus: 200 })
      .where("id", "=", other.deliveryId)
      .execute();

    await until(
      () =>
        server.db.kysely
          .selectFrom("WebhookDelivery")
          .select("status")
          .where("endpointId", "=", endpoint.id)
          .where("id", "!=", other.deliveryId)
          .executeTakeFirstOrThrow(),
      (d) => d.status === "failed",
    );
    const row = await server.db.kysely.selectFrom("WebhookEndpoint").selectAll().where("id", "=", endpoint.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: "enabled", disabledReason: null });
  });

  it("a secret that no longer opens (WEBHOOK_SECRETS_KEY changed) is a failed attempt on the schedule, never sent", async () => {
    const org = await organization();
    const endpoint = await createEndpoint(org, "/resealed");
    const otherKey = parseSecretsKey(Buffer.alloc(32, 9).toString("base64"));
    await server.db.kysely
      .updateTable("WebhookEndpoint")
      .set({ secretSealed: sealSecret(endpoint.secret, otherKey) })
      .where("id", "=", endpoint.id)
      .execute();
    await org.call("POST", "/api/v1/wallets", { chain: "base", label: "resealed" });
    const delivery = await until(
      () => deliveryOf(endpoint.id),
      (d) => d.status === "failed",
    );
    const attempts = await attemptsOf(delivery.id);
    expect(attempts).toHaveLength(SCHEDULE.length + 1);
    expect(attempts.every((a) => a.error === "signing_failed" && a.httpStatus === null)).toBe(true);
    expect(receiver.at("/resealed")).toHaveLength(0);
  });

  it("does not send a delivery whose endpoint was disabled: it is marked failed with no attempt", async () => {
    const org = await organization();
    const { organizationId } = org;
    const endpoint = await createEndpoint(org, "/off");
    const patched = await org.call("PATCH", `/api/v2/agent/webhook-endpoints/${endpoint.id}`, { enabled: false }, idempotent());
    expect(patched.json).toMatchObject({ status: "disabled", disabledReason: "requested" });
    const { deliveryId } = await insertEventAndDelivery(organizationId, endpoint.id);
    const delivery = await until(
      () => deliveryOf(endpoint.id),
      (d) => d.status !== "pending",
    );
    expect(delivery).toMatchObject({ id: deliveryId, status: "failed", attemptCount: 0, nextAttemptAt: null });
    expect(await attemptsOf(deliveryId)).toHaveLength(0);
    expect(receiver.at("/off")).toHaveLength(0);
  });

  it("refuses production endpoints on loopback at delivery time (address literal and a name resolving to it)", async () => {
    const { organizationId } = await organization();
    const port = new URL(receiver.url).port;
    for (const [path, url] of [
      ["/prod-literal", `https://127.0.0.1:${port}/prod-literal`],
      ["/prod-name", `https://localhost:${port}/prod-name`],
      ["/prod-http", `http://localhost:${port}/prod-http`],
    ] as const) {
      const endpoint = await insertProductionEndpoint(organizationId, url);
      const { deliveryId } = await insertEventAndDelivery(organizationId, endpoint.id, "production");
      const attempts = await until(
        () => attemptsOf(deliveryId),
        (a) => a.length >= 1,
      );
      expect(attempts[0]).toMatchObject({ httpStatus: null, error: "blocked_address" });
      expect(receiver.at(path)).toHaveLength(0);
    }
  });

  it("sends again, once, a delivery whose worker died holding it, after the lease ends", async () => {
    const org = await organization();
    const { organizationId } = org;
    const endpoint = await createEndpoint(org, "/orphan");
    // A worker claims the delivery (one instance's real claim, in the transaction that wrote it so the test server's
    // worker cannot take it first) and dies before sending or recording.
    const leaseSeconds = 1;
    const claimedAt = Date.now();
    const claimed = await server.db.kysely.transaction().execute(async (tx) => {
      const now = new Date();
      const eventId = newId("evt");
      await tx
        .insertInto("Event")
        .values({
          id: eventId,
          organizationId,
          environment: "sandbox",
          type: "wallet.created",
          resourceId: "wal_y",
          data: JSON.stringify({ id: "wal_y" }),
          simulated: null,
          createdAt: now,
        })
        .execute();
      await tx
        .insertInto("WebhookDelivery")
        .values({
          id: newId("wdl"),
          endpointId: endpoint.id,
          eventId,
          organizationId,
          environment: "sandbox",
          eventType: "wallet.created",
          status: "pending",
          nextAttemptAt: now,
          createdAt: now,
        })
        .execute();
      return claimDeliveries(tx, { now, limit: 100, leaseSeconds });
    });
    const mine = claimed.find((d) => d.endpointId === endpoint.id);
    if (!mine) throw new Error("the delivery was not claimed");

    const [receipt] = await receiver.waitFor("/orphan", 1, 5_000);
    expect(receipt?.receivedAt).toBeGreaterThanOrEqual(claimedAt + leaseSeconds * 1000 - 50);
    await until(
      () => deliveryOf(endpoint.id),
      (d) => d.status === "succeeded",
    );
    // The dead worker's late record changes nothing: its lease token is no longer the delivery's.
    const late = await recordAttempt(
      server.db.kysely,
      mine,
      { httpStatus: 200, error: null, durationMs: 1 },
      { attemptedAt: new Date(), retryScheduleSeconds: SCHEDULE },
    );
    expect(late.outcome).toBe("lease_lost");
    const delivery = await deliveryOf(endpoint.id);
    expect(delivery.attemptCount).toBe(1);
    expect(await attemptsOf(delivery.id)).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 200));
    expect(receiver.at("/orphan")).toHaveLength(1);
  });
});
