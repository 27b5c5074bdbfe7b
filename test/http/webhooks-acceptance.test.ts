// Issue 16's acceptance, end to end as an integrator sees it: a bank transfer created against a registered local
// endpoint is delivered as a signed `bank_transfer.created` that the reference `standardwebhooks` verifier accepts, and
// each later state change (the status lookups advance the sandbox transfer) delivers exactly one more event, whose
// `data` is the transfer as the API answered at that moment.
import { randomUUID } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, startTestServer, type TestServer } from "../helpers/test-server.ts";
import { connect } from "../helpers/v2.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../helpers/webhook-receiver.ts";
import { BANK_TRANSFER, sepaTransfer } from "../system/bodies.ts";

const ORG = "org_webhooks_acceptance";
const STATUS = "/api/v2/agent/payments/bank-transfer/status";

let server: TestServer;
let receiver: WebhookReceiver;
let call: ReturnType<typeof api>;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  server = await startTestServer({ webhookDelivery: true, env: { WEBHOOK_POLL_INTERVAL_MS: "20" } });
  const key = await server.createKey({ organizationId: ORG, scopes: ["payments:write", "webhooks:write"] });
  call = api(server.url, key.key);
  await connect(server, { organizationId: ORG, category: "bank_transfer" });
});
afterAll(async () => {
  await server?.close();
  await receiver?.close();
});

describe("a bank transfer's events reach a registered endpoint, signed", () => {
  it("created, then one more per state change, each verified by standardwebhooks", async () => {
    const endpoint = await call(
      "POST",
      "/api/v2/agent/webhook-endpoints",
      { url: `${receiver.url}/hooks`, enabledEvents: ["bank_transfer.created", "bank_transfer.submitted", "bank_transfer.completed"] },
      { "idempotency-key": randomUUID() },
    );
    expect(endpoint.status, endpoint.text).toBe(201);
    const verifier = new Webhook(endpoint.json.secret);

    const order = sepaTransfer(`ACC-${randomUUID().slice(0, 8)}`);
    const created = await call("POST", BANK_TRANSFER, order, { "idempotency-key": randomUUID() });
    expect(created.status, created.text).toBe(201);
    const answers = [created.json];
    const lookup = {
      transferId: created.json.id,
      senderJurisdiction: order.senderJurisdiction,
      receiverJurisdiction: order.receiverJurisdiction,
    };
    for (const expected of ["processing", "completed"]) {
      const moved = await call("POST", STATUS, lookup);
      expect(moved.json.status).toBe(expected);
      answers.push(moved.json);
    }
    // A lookup of the terminal transfer changes nothing: no further event.
    await call("POST", STATUS, lookup);

    const receipts = await receiver.waitFor("/hooks", 3, 15_000);
    await new Promise((resolve) => setTimeout(resolve, 300)); // anything extra would have arrived by now
    expect(receiver.at("/hooks")).toHaveLength(3);
    const events = receipts.map((receipt) => {
      const headers = {
        "webhook-id": String(receipt.headers["webhook-id"]),
        "webhook-timestamp": String(receipt.headers["webhook-timestamp"]),
        "webhook-signature": String(receipt.headers["webhook-signature"]),
      };
      const event = verifier.verify(receipt.body, headers) as { id: string; type: string; data: { id: string; status: string } };
      expect(headers["webhook-id"]).toBe(event.id);
      return event;
    });
    const byType = new Map(events.map((event) => [event.type, event]));
    expect([...byType.keys()].sort()).toEqual(["bank_transfer.completed", "bank_transfer.created", "bank_transfer.submitted"]);
    expect(byType.get("bank_transfer.created")?.data).toEqual(answers[0]);
    expect(byType.get("bank_transfer.submitted")?.data).toEqual(answers[1]);
    expect(byType.get("bank_transfer.completed")?.data).toEqual(answers[2]);
    expect(new Set(events.map((event) => event.id)).size).toBe(3);
  });
});
