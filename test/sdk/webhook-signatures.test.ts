// Standard Webhooks signing and verification (sdk/src/webhooks/standard-webhooks.ts): the replay window both ways,
// tampering, wrong and rotated secrets, header shapes, and interop with the reference library `standardwebhooks`.
import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { signWebhook, verifyWebhook, WebhookVerificationError, webhookHeaders } from "../../sdk/src/webhooks/standard-webhooks.ts";

const newSecret = () => `whsec_${randomBytes(32).toString("base64")}`;
const secret = newSecret();
const nowSeconds = 1_790_000_000;
const clock = (seconds: number) => () => seconds * 1000;
const body = JSON.stringify({ id: "evt_1", type: "bank_transfer.completed", data: { id: "bt_1", amount: "10.00" } });

function signed(overrides: Partial<{ id: string; timestamp: number; body: string; secrets: string[] }> = {}) {
  const input = { id: "evt_1", timestamp: nowSeconds, body, secrets: [secret], ...overrides };
  return { payload: input.body, headers: webhookHeaders(input) };
}

function verificationError(run: () => unknown): string {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(WebhookVerificationError);
    return (err as Error).message;
  }
  throw new Error("expected a WebhookVerificationError");
}

describe("signWebhook / verifyWebhook", () => {
  it("verifies what it signs and returns the parsed body", () => {
    const { payload, headers } = signed();
    expect(headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(verifyWebhook(payload, headers, secret, { now: clock(nowSeconds) })).toEqual(JSON.parse(body));
  });

  it("accepts a Buffer body, a fetch Headers object and capitalised or array-valued header records", () => {
    const { payload, headers } = signed();
    const now = clock(nowSeconds);
    expect(verifyWebhook(Buffer.from(payload), new Headers(headers), secret, { now })).toEqual(JSON.parse(body));
    const capitalised = {
      "Webhook-Id": headers["webhook-id"],
      "Webhook-Timestamp": headers["webhook-timestamp"],
      "Webhook-Signature": [headers["webhook-signature"]],
    };
    expect(verifyWebhook(payload, capitalised, secret, { now })).toEqual(JSON.parse(body));
  });

  it("accepts timestamps up to 5 minutes old or ahead, and rejects beyond that", () => {
    const { payload, headers } = signed();
    expect(() => verifyWebhook(payload, headers, secret, { now: clock(nowSeconds + 300) })).not.toThrow();
    expect(() => verifyWebhook(payload, headers, secret, { now: clock(nowSeconds - 300) })).not.toThrow();
    expect(verificationError(() => verifyWebhook(payload, headers, secret, { now: clock(nowSeconds + 301) }))).toMatch(/too old/);
    expect(verificationError(() => verifyWebhook(payload, headers, secret, { now: clock(nowSeconds - 301) }))).toMatch(/too new/);
    // A custom window.
    expect(() => verifyWebhook(payload, headers, secret, { now: clock(nowSeconds + 301), toleranceSeconds: 600 })).not.toThrow();
  });

  it("rejects a tampered body, id or timestamp", () => {
    const { payload, headers } = signed();
    const now = clock(nowSeconds);
    expect(verificationError(() => verifyWebhook(payload.replace("10.00", "99.00"), headers, secret, { now }))).toMatch(/signature/);
    expect(verificationError(() => verifyWebhook(payload, { ...headers, "webhook-id": "evt_2" }, secret, { now }))).toMatch(/signature/);
    const shifted = { ...headers, "webhook-timestamp": String(nowSeconds + 1) };
    expect(verificationError(() => verifyWebhook(payload, shifted, secret, { now }))).toMatch(/signature/);
  });

  it("rejects the wrong secret, missing headers and a non-numeric timestamp", () => {
    const { payload, headers } = signed();
    const now = clock(nowSeconds);
    expect(verificationError(() => verifyWebhook(payload, headers, newSecret(), { now }))).toMatch(/No matching signature/);
    for (const name of ["webhook-id", "webhook-timestamp", "webhook-signature"] as const) {
      const { [name]: _dropped, ...rest } = headers;
      expect(verificationError(() => verifyWebhook(payload, rest, secret, { now }))).toMatch(/Missing/);
    }
    expect(verificationError(() => verifyWebhook(payload, { ...headers, "webhook-timestamp": "12abc" }, secret, { now }))).toMatch(
      /timestamp/,
    );
  });

  it("during a rotation both secrets verify a message signed with both (two signatures in the header)", () => {
    const previous = newSecret();
    const { payload, headers } = signed({ secrets: [secret, previous] });
    expect(headers["webhook-signature"].split(" ")).toHaveLength(2);
    const now = clock(nowSeconds);
    expect(() => verifyWebhook(payload, headers, secret, { now })).not.toThrow();
    expect(() => verifyWebhook(payload, headers, previous, { now })).not.toThrow();
    expect(verificationError(() => verifyWebhook(payload, headers, newSecret(), { now }))).toMatch(/No matching signature/);
  });

  it("skips signature versions it does not know and malformed entries", () => {
    const { payload, headers } = signed();
    const valid = headers["webhook-signature"].slice(3);
    const now = clock(nowSeconds);
    const unknownVersion = { ...headers, "webhook-signature": `v1a,${valid} garbage v1,short` };
    expect(verificationError(() => verifyWebhook(payload, unknownVersion, secret, { now }))).toMatch(/No matching signature/);
    const mixed = { ...headers, "webhook-signature": `v1a,${valid} v1,${valid}` };
    expect(() => verifyWebhook(payload, mixed, secret, { now })).not.toThrow();
  });

  it("refuses malformed secrets instead of signing with another key", () => {
    expect(() => signWebhook({ id: "evt_1", timestamp: nowSeconds, body, secrets: ["whsec_not base64!"] })).toThrow(TypeError);
    expect(() => signWebhook({ id: "evt_1", timestamp: nowSeconds, body, secrets: [] })).toThrow(TypeError);
    expect(() => signWebhook({ id: "evt_1", timestamp: 1.5, body, secrets: [secret] })).toThrow(TypeError);
  });
});

describe("interop with the reference library standardwebhooks", () => {
  it("our signatures verify with Webhook.verify (including a two-signature header)", () => {
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = webhookHeaders({ id: "evt_interop", timestamp, body, secrets: [newSecret(), secret] });
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(newSecret()).verify(body, headers)).toThrow();
  });

  it("Webhook.sign output verifies with ours", () => {
    const timestamp = new Date();
    const signature = new Webhook(secret).sign("evt_interop", timestamp, body);
    const headers = {
      "webhook-id": "evt_interop",
      "webhook-timestamp": String(Math.floor(timestamp.getTime() / 1000)),
      "webhook-signature": signature,
    };
    expect(verifyWebhook(body, headers, secret)).toEqual(JSON.parse(body));
    expect(signature).toBe(signWebhook({ id: "evt_interop", timestamp: Math.floor(timestamp.getTime() / 1000), body, secrets: [secret] }));
  });
});
