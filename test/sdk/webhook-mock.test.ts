// The partner mock as a webhook sender (sdk/src/mock/emit-event.ts, `npm run mock -- emit`): every event type of the
// spec can be built and is valid against the spec's `webhooks`; sent to a real local Express receiver that verifies
// with express.raw + webhooks.verify (the receiver of docs/webhooks.md), it verifies, and wrong secrets, rotations and
// stale timestamps behave as documented.
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { promisify } from "node:util";
import express from "express";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { objectProperties } from "../../scripts/sdk-generator/spec.ts";
import { statusAfter, webhookEntries } from "../../scripts/sdk-generator/webhook-events.ts";
import { Coinplane, type WebhookEvent, WebhookVerificationError, webhooks } from "../../sdk/src/index.ts";
import { mockApiKeys } from "../../sdk/src/mock/api-keys.ts";
import { buildMockEvent, emitMockEvent, mockEventTypes } from "../../sdk/src/mock/emit-event.ts";
import { startMockServer } from "../../sdk/src/mock/server.ts";
import { loadSpec } from "../../server/spec/load-spec.ts";
import { SpecValidator } from "./spec-validator.ts";

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "../..");
const spec = loadSpec();
const validator = new SpecValidator(spec);
const specTypes = Object.keys((spec as { webhooks?: Record<string, unknown> }).webhooks ?? {});
const newSecret = () => `whsec_${randomBytes(32).toString("base64")}`;
const secret = newSecret();

interface Received {
  status: number;
  event?: WebhookEvent;
  error?: string;
  headers: Record<string, string | string[] | undefined>;
}
let received: Received[] = [];
let server: Server;
let url: string;

beforeAll(async () => {
  const app = express();
  app.post("/webhooks", express.raw({ type: "application/json" }), (req, res) => {
    try {
      const event = webhooks.verify(req.body as Buffer, req.headers, secret);
      received.push({ status: 204, event, headers: req.headers });
      res.sendStatus(204);
    } catch (err) {
      if (!(err instanceof WebhookVerificationError)) throw err;
      received.push({ status: 400, error: err.message, headers: req.headers });
      res.status(400).send(err.message);
    }
  });
  server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  received = [];
});

describe("mock event catalogue", () => {
  it("covers exactly the spec's event types", () => {
    expect(specTypes.length).toBeGreaterThan(0);
    expect(mockEventTypes().sort()).toEqual([...specTypes].sort());
  });

  it.each(specTypes)("%s: the built event is valid against the spec's webhook schema", (type) => {
    const event = buildMockEvent({ type, simulated: true });
    expect(event.type).toBe(type);
    expect(event.id).toMatch(/^evt_[0-9A-Za-z]{22}$/);
    expect(validator.checkWebhook(type, event)).toEqual([]);
  });

  it("gives data the status the event leaves the resource in (named in the summary, else the verb)", () => {
    const doc = spec as never;
    let checked = 0;
    for (const { type, summary, media } of webhookEntries(doc)) {
      const status = statusAfter(doc, type, summary, objectProperties(doc, media?.schema).properties.data);
      if (status === undefined) continue;
      checked++;
      expect((buildMockEvent({ type }).data as { status?: unknown }).status, type).toBe(status);
    }
    // bank transfers, custody, approvals, issuance, workflow runs, cards, endpoints: most types name a status.
    expect(checked).toBeGreaterThan(30);
  });

  it("refuses an unknown event type, naming the known ones", () => {
    expect(() => buildMockEvent({ type: "bank_transfer.teleported" })).toThrow(/Unknown event type.*bank_transfer\.completed/);
  });
});

describe("emitMockEvent to a local receiver", () => {
  it("delivers a signed event that webhooks.verify accepts, data merged over the sample", async () => {
    const result = await emitMockEvent({ type: "bank_transfer.completed", url, secret, data: { note: "merged" }, organizationId: "org_x" });
    expect(result.status).toBe(204);
    expect(received).toHaveLength(1);
    const [{ event, headers }] = received as [Received];
    expect(event).toEqual(result.event);
    expect(event).toMatchObject({
      type: "bank_transfer.completed",
      organizationId: "org_x",
      environment: "sandbox",
      data: { note: "merged" },
    });
    expect(headers["webhook-id"]).toBe(result.event.id);
    expect(headers["content-type"]).toBe("application/json");
    expect(Number(headers["webhook-timestamp"])).toBeCloseTo(Date.now() / 1000, -1);
  });

  it("is rejected by the receiver when signed with another secret", async () => {
    const result = await emitMockEvent({ type: "card.issued", url, secret: newSecret() });
    expect(result.status).toBe(400);
    expect(received[0]?.error).toMatch(/No matching signature/);
  });

  it("signs with two secrets during a rotation: a receiver with either verifies", async () => {
    const result = await emitMockEvent({ type: "card.issued", url, secret: [newSecret(), secret] });
    expect(result.status).toBe(204);
    expect(String(received[0]?.headers["webhook-signature"]).split(" ")).toHaveLength(2);
  });

  it("an old timestamp is refused by the receiver's replay window", async () => {
    const result = await emitMockEvent({ type: "card.issued", url, secret, timestamp: Math.floor(Date.now() / 1000) - 600 });
    expect(result.status).toBe(400);
    expect(received[0]?.error).toMatch(/too old/);
  });
});

describe("the mock's webhook endpoint and event operations, through the SDK", () => {
  it("lists events filtered by repeated types, refuses an unknown type, and creates an endpoint with its secret", async () => {
    const mock = await startMockServer({ port: 0 });
    try {
      const urls: string[] = [];
      const coinplane = new Coinplane({
        apiKey: mockApiKeys.sandbox,
        baseUrl: mock.url,
        hooks: { onRequest: (e) => void urls.push(e.url) },
      });
      const page = await coinplane.events.list({ type: ["card.issued", "bank_transfer.failed"] });
      expect(urls[0]).toContain("/api/v2/agent/events?type=card.issued&type=bank_transfer.failed");
      expect(page.data.length).toBeGreaterThan(0);
      await expect(coinplane.events.list({ type: ["bank_transfer.teleported" as never] })).rejects.toMatchObject({ status: 400 });
      const endpoint = await coinplane.webhookEndpoints.create({ url: "http://localhost:3000/webhooks", enabledEvents: ["*"] });
      expect(endpoint.secret).toMatch(/^whsec_/);
    } finally {
      await mock.close();
    }
  });
});

describe("npm run mock -- emit", () => {
  const cli = (args: string[], env: Record<string, string> = {}) =>
    run(process.execPath, ["--import", "tsx", "sdk/src/mock/cli.ts", "emit", ...args], {
      cwd: root,
      env: { ...process.env, ...env },
      timeout: 120_000,
    });

  it("sends one signed event (secret from the environment) and prints its id and the answer", async () => {
    const { stdout } = await cli(["workflow_run.failed", "--url", url, "--data", '{"note":"cli"}'], { COINPLANE_WEBHOOK_SECRET: secret });
    expect(received).toHaveLength(1);
    expect(received[0]?.event).toMatchObject({ type: "workflow_run.failed", data: { note: "cli" } });
    expect(stdout).toContain(`workflow_run.failed ${received[0]?.event?.id}`);
    expect(stdout).toContain("HTTP 204");
  });

  it("exits 1 when the receiver refuses, 2 on bad usage, and lists the types", async () => {
    await expect(cli(["card.issued", "--url", url, "--secret", newSecret()])).rejects.toMatchObject({ code: 1 });
    await expect(cli(["card.issued", "--url", url], { COINPLANE_WEBHOOK_SECRET: "" })).rejects.toMatchObject({ code: 2 });
    const { stdout } = await cli(["--list"]);
    expect(stdout.trim().split("\n").sort()).toEqual([...specTypes].sort());
  });
});
