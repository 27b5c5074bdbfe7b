// The event types: one per entry of the spec's top-level `webhooks` (openapi/openapi.yaml), so an event type the
// contract does not document does not compile. The catalogue is in docs/webhooks.md.
import type { webhooks } from "../../generated/openapi.ts";

export type EventType = keyof webhooks & string;
