// The partner mock as a webhook sender: builds an event of any type of the contract (envelope + a plausible `data` from
// the spec's examples, see scripts/sdk-generator/webhook-events.ts), signs it as the API does (Standard Webhooks) and
// POSTs it to a URL, so a receiver can be built and tested without a server. `npm run mock -- emit <type> …` wraps it.
import { randomBytes } from "node:crypto";
import { mockData as generatedData } from "../generated/mock-data.ts";
import type { WebhookEventEnvelope } from "../webhooks/events.ts";
import { webhookHeaders } from "../webhooks/standard-webhooks.ts";
import type { MockData } from "./types.ts";

export interface EmitMockEventOptions {
  /** An event type of the contract, e.g. `bank_transfer.completed`. */
  type: string;
  /** Where to POST it (any URL: the mock does not apply the production address rules). */
  url: string;
  /** `whsec_…`; two secrets sign twice, as during a rotation overlap. */
  secret: string | string[];
  /** Replaces the sample `data` (merged over it, so a few fields are enough: `{ id: "bt_…" }`). */
  data?: Record<string, unknown>;
  /** Envelope fields (defaults: a new `evt_…`, now, `org_mock`, `sandbox`). */
  id?: string;
  createdAt?: string;
  organizationId?: string;
  environment?: "sandbox" | "production";
  simulated?: boolean;
  /** Unix seconds for `webhook-timestamp` (default now): an old value tests a receiver's replay window. */
  timestamp?: number;
  timeoutMs?: number;
  fetch?: typeof fetch;
  mockData?: MockData;
}

export interface EmitMockEventResult {
  event: WebhookEventEnvelope;
  /** The exact body sent (what the signature covers). */
  body: string;
  headers: Record<string, string>;
  /** The receiver's answer. */
  status: number;
  ok: boolean;
  responseBody: string;
}

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const newEventId = () => `evt_${Array.from(randomBytes(22), (b) => BASE62[b % 62]).join("")}`;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Every event type the mock can emit (the contract's `webhooks`). */
export function mockEventTypes(data: MockData = generatedData): string[] {
  return (data.webhooks ?? []).map((w) => w.type);
}

/** The event `emitMockEvent` would send, without sending it. */
export function buildMockEvent(options: Omit<EmitMockEventOptions, "url" | "secret">): WebhookEventEnvelope {
  const data = options.mockData ?? generatedData;
  const spec = (data.webhooks ?? []).find((w) => w.type === options.type);
  if (!spec) {
    const known = mockEventTypes(data);
    throw new TypeError(`Unknown event type "${options.type}"; the contract defines: ${known.join(", ") || "(none yet)"}`);
  }
  const sample = structuredClone(data.values[spec.data]);
  const merged = isObject(sample) && options.data ? { ...sample, ...options.data } : (options.data ?? sample);
  const createdAt = options.createdAt ?? new Date().toISOString();
  const event: WebhookEventEnvelope = {
    id: options.id ?? newEventId(),
    type: options.type,
    createdAt,
    timestamp: createdAt,
    organizationId: options.organizationId ?? "org_mock",
    environment: options.environment ?? "sandbox",
    data: merged as Record<string, unknown>,
  };
  if (options.simulated !== undefined) event.simulated = options.simulated;
  return event;
}

/** Builds, signs and POSTs one event; resolves with the receiver's answer (rejects only when no answer arrived). */
export async function emitMockEvent(options: EmitMockEventOptions): Promise<EmitMockEventResult> {
  const event = buildMockEvent(options);
  const body = JSON.stringify(event);
  const secrets = Array.isArray(options.secret) ? options.secret : [options.secret];
  const signed = webhookHeaders({ id: event.id, timestamp: options.timestamp ?? Math.floor(Date.now() / 1000), body, secrets });
  const headers = { "content-type": "application/json", "user-agent": "coinplane-mock-webhooks/1", ...signed };
  const response = await (options.fetch ?? globalThis.fetch)(options.url, {
    method: "POST",
    headers,
    body,
    // As the real sender: a redirect is an answer (a failure), not something to follow.
    redirect: "manual",
    signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
  });
  const responseBody = await response.text();
  return { event, body, headers, status: response.status, ok: response.ok, responseBody };
}
