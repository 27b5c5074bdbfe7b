// Typed webhook events, derived from the contract's top-level `webhooks` (one entry per event type, generated into
// generated/openapi.ts by `npm run generate`): the request body of each entry's `post` is that event's envelope.
import type { webhooks as WebhookSpec } from "../generated/openapi.ts";

type JsonBody<T> = NonNullable<T> extends { content: { "application/json": infer B } } ? B : never;
type PostBody<Item> = Item extends { post: infer Op } ? (Op extends { requestBody?: infer RB } ? JsonBody<RB> : never) : never;
/** Drops `[key: string]: unknown`: the spec's bodies are `{ type; data: Card } & Event`, and Event's `data` is any object;
 * without this, `event.data.anything` would compile. */
type KnownKeys<T> = { [K in keyof T as string extends K ? never : number extends K ? never : K]: T[K] };
type Narrowed<Body, T> = Body extends { data: infer D } ? Omit<Body, "type" | "data"> & { type: T; data: KnownKeys<D> } : never;

/** True once the spec declares its webhooks; before that the generator emits `Record<string, never>`. */
type HasGeneratedWebhooks = WebhookSpec extends Record<string, never> ? false : true;

/** The envelope every event shares (what the API stores, lists under /events and POSTs to endpoints). */
export interface WebhookEventEnvelope<Type extends string = string, Data = Record<string, unknown>> {
  /** `evt_…`; also the `webhook-id` header. The same on every retry: deduplicate on it. */
  id: string;
  type: Type;
  createdAt: string;
  /** The same instant as `createdAt`, named as the Standard Webhooks payload convention names it. */
  timestamp: string;
  organizationId: string;
  environment: "sandbox" | "production";
  /** Present (true) when a sandbox simulator produced the change, and on every test event. */
  simulated?: boolean;
  /** The resource exactly as the API returns it from its GET. */
  data: Data;
}

/** Every event type of the contract, e.g. `"bank_transfer.completed"`. */
export type WebhookEventType = HasGeneratedWebhooks extends true ? Extract<keyof WebhookSpec, string> : string;

/** The event of one type: `WebhookEventOf<"card.issued">["data"]` is the card. */
export type WebhookEventOf<T extends WebhookEventType> = HasGeneratedWebhooks extends true
  ? T extends keyof WebhookSpec
    ? Narrowed<PostBody<WebhookSpec[T]>, T>
    : never
  : WebhookEventEnvelope<T>;

/** Any event: a union discriminated by `type`, so `switch (event.type)` narrows `event.data`. */
export type WebhookEvent = { [T in WebhookEventType]: WebhookEventOf<T> }[WebhookEventType];
