// `webhooks.verify(payload, headers, secret)`: the SDK's entry to receiving events. Verification is Standard Webhooks
// (standard-webhooks.ts); the result is typed by the contract's event catalogue (events.ts).
import type { WebhookEvent } from "./events.ts";
import { signWebhook, type VerifyWebhookOptions, verifyWebhook, type WebhookHeaders, webhookHeaders } from "./standard-webhooks.ts";

export type { WebhookEvent, WebhookEventEnvelope, WebhookEventOf, WebhookEventType } from "./events.ts";
export {
  DEFAULT_WEBHOOK_TOLERANCE_SECONDS,
  type SignWebhookInput,
  signWebhook,
  type VerifyWebhookOptions,
  verifyWebhook,
  type WebhookHeaders,
  WebhookVerificationError,
  webhookHeaders,
} from "./standard-webhooks.ts";

export const webhooks = {
  /**
   * Verifies a received webhook (signature with a `whsec_…` secret, timestamp within 5 minutes either way) and returns
   * the event. `payload` is the raw request body exactly as received — with Express use `express.raw({ type:
   * "application/json" })`, not `express.json()`. Throws `WebhookVerificationError` when it does not verify.
   */
  verify(payload: string | Uint8Array, headers: WebhookHeaders, secret: string, options?: VerifyWebhookOptions): WebhookEvent {
    return verifyWebhook<WebhookEvent>(payload, headers, secret, options);
  },
  /** Signs a body as the API does (for tests of your receiver): the three `webhook-*` headers. */
  headers: webhookHeaders,
  /** The `webhook-signature` header value alone. */
  sign: signWebhook,
};
